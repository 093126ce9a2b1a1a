/**
 * The tree view of a big session is read from its kept layout (issue 32 item 3): once laid out, an open — at the
 * leaf, on a deep entry, with stretches unfolded — reads a few chunks of the layout, never the session's shape or
 * rows. On a bushy session of thousands of entries (branches off old entries, labels, failed results, branch
 * summaries, bookkeeping), after appends, every filter mode's rows equal the reference walk below: pi's /tree order
 * and filters, connectors and folds, written here on the entries as the file has them (for `all` it is checked
 * against the whole tree's layout, components/tree/tree-layout.ts, whose frames are hand-written in tree-layout.test).
 */
import { appendFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { treeRows } from "../components/tree/tree-layout.js";
import { openStore } from "../src/index/store.js";
import { SHAPE_CHUNK } from "../src/index/tree-shape-store.js";
import { LAYOUT_MIN } from "../src/query/tree-layout.js";
import { treeWindow } from "../src/query/tree-window.js";
import { TREE_FILTER_MODES, type TreeFilterMode, type TreeViewRow } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";

const tmp = tempDir("pes-tree-layout-");
afterAll(() => tmp.cleanup());

const SESSION = "7a7b7c7d-1111-4222-8333-944445555777";
const root = join(tmp.dir, "sessions");
const file = join(root, "--w--", "2026-12-02T10-00-00-000Z_layout.jsonl");
const index = join(tmp.dir, "index.sqlite");

interface Entry {
	id: string;
	parentId: string | null;
	type: string;
	role?: string;
	callsOnly?: boolean;
	error?: boolean;
	target?: string;
}
const entries: Entry[] = [];
let clock = Date.parse("2026-12-02T10:00:00Z");
let seed = 7;
const rand = (n: number) => {
	seed = (seed * 1103515245 + 12345) % 2147483648;
	return Math.floor(seed / 65536) % n;
};

/** One JSONL line for an entry under `parent`, remembered for the reference walk. */
function line(e: Entry): string {
	clock += 1000;
	entries.push(e);
	const ts = new Date(clock).toISOString();
	const base = { id: e.id, parentId: e.parentId, timestamp: ts };
	if (e.type === "label") return `${JSON.stringify({ type: "label", ...base, targetId: e.target, label: `mark ${e.target}` })}\n`;
	if (e.type === "model_change") return `${JSON.stringify({ type: "model_change", ...base, provider: "anthropic", modelId: `m-${e.id}` })}\n`;
	if (e.type === "compaction")
		return `${JSON.stringify({ type: "compaction", ...base, summary: `compacted ${e.id}`, firstKeptEntryId: e.target, tokensBefore: 50000 })}\n`;
	if (e.type === "branch_summary") return `${JSON.stringify({ type: "branch_summary", ...base, fromId: e.parentId, summary: `left ${e.id}` })}\n`;
	const message =
		e.role === "user"
			? { role: "user", content: [{ type: "text", text: `ask ${e.id}` }], timestamp: clock }
			: e.role === "assistant"
				? {
						role: "assistant",
						content: [
							...(e.callsOnly ? [] : [{ type: "text", text: `reply ${e.id}` }]),
							{ type: "toolCall", id: `call_${e.id}`, name: "read", arguments: { path: `src/${e.id}.ts` } },
						],
						stopReason: "toolUse",
						timestamp: clock,
					}
				: {
						role: "toolResult",
						toolCallId: `call_${e.parentId}`,
						toolName: "read",
						content: [{ type: "text", text: `file ${e.id}` }],
						isError: e.error === true,
						timestamp: clock,
					};
	return `${JSON.stringify({ type: "message", ...base, message })}\n`;
}

let n = 0;
/** Turns of a bushy session: every few turns a branch back up the current path (sometimes with a summary), labels, model changes. */
function grow(turns: number): string {
	let out = "";
	for (let t = 0; t < turns; t++) {
		let parent = entries.at(-1)?.id ?? null;
		if (entries.length > 20 && rand(9) === 0) {
			// pi's /tree back to an entry of the current path, a few or many entries up.
			const byId = new Map(entries.map((e) => [e.id, e]));
			for (let up = rand(2) ? rand(12) : rand(4000); up > 0 && parent !== null; up--) parent = byId.get(parent)?.parentId ?? null;
			if (rand(3) === 0) {
				out += line({ id: `s${n++}`, parentId: parent, type: "branch_summary" });
				parent = `s${n - 1}`;
			}
		}
		const u = `u${n++}`;
		const a = `a${n++}`;
		const r = `r${n++}`;
		out += line({ id: u, parentId: parent, type: "message", role: "user" });
		out += line({ id: a, parentId: u, type: "message", role: "assistant", callsOnly: rand(3) === 0 });
		out += line({ id: r, parentId: a, type: "message", role: "toolResult", error: rand(40) === 0 });
		// Long plain stretches to fold: replies and results without a prompt between them.
		let last = r;
		for (let k = rand(4); k > 0; k--) {
			const a2 = `a${n++}`;
			const r2 = `r${n++}`;
			out += line({ id: a2, parentId: last, type: "message", role: "assistant" });
			out += line({ id: r2, parentId: a2, type: "message", role: "toolResult" });
			last = r2;
		}
		if (rand(25) === 0) out += line({ id: `m${n++}`, parentId: last, type: "model_change" });
		if (rand(30) === 0) {
			const target = (entries[rand(entries.length)] as Entry).id;
			out += line({ id: `l${n++}`, parentId: (entries.at(-1) as Entry).id, type: "label", target });
		}
	}
	return out;
}

/** One row as compared: what the tree view draws of it. */
type Drawn = { key: string; type: string; prefix: string; depth: number; count: number; stretch: string | null };
const drawn = (r: TreeViewRow): Drawn => ({
	key: r.key,
	type: r.type,
	prefix: r.prefix,
	depth: r.depth,
	count: r.type === "fold" ? r.count : 1,
	stretch: r.stretch,
});
const keyOf = (id: string) => `${SESSION}/${id}`;

/** The reference walk: pi's /tree of the entries under a filter, folded like the tree view (FOLD_MIN 3). */
function reference(filter: TreeFilterMode, unfolded: ReadonlySet<string>, focus: string | null): Drawn[] {
	const leaf = (entries.at(-1) as Entry).id;
	const labels = new Set(entries.filter((e) => e.type === "label").map((e) => e.target as string));
	const quiet = (e: Entry) => !["label", "model_change"].includes(e.type) && (!e.callsOnly || e.id === leaf);
	const shown = (e: Entry) =>
		filter === "all"
			? true
			: filter === "no-tools"
				? quiet(e) && e.role !== "toolResult"
				: filter === "user-only"
					? e.role === "user"
					: filter === "labeled-only"
						? labels.has(e.id)
						: quiet(e);
	const kids = new Map<string | null, Entry[]>();
	const byId = new Map(entries.map((e) => [e.id, e]));
	for (const e of entries) {
		const p = e.parentId !== null && byId.has(e.parentId) ? e.parentId : null;
		const list = kids.get(p);
		if (list) list.push(e);
		else kids.set(p, [e]);
	}
	// Shown entries in pre-order, each under its nearest shown ancestor.
	const order: Array<{ e: Entry; vpar: string | null }> = [];
	const walk = (start: Entry, vpar: string | null) => {
		const stack: Array<[Entry, string | null]> = [[start, vpar]];
		while (stack.length > 0) {
			const [e, vp] = stack.pop() as [Entry, string | null];
			const show = shown(e);
			if (show) order.push({ e, vpar: vp });
			const below = show ? e.id : vp;
			const ks = kids.get(e.id) ?? [];
			for (let k = ks.length - 1; k >= 0; k--) stack.push([ks[k] as Entry, below]);
		}
	};
	for (const top of kids.get(null) ?? []) walk(top, null);
	const shownKids = new Map<string | null, string[]>();
	for (const { e, vpar } of order) {
		const list = shownKids.get(vpar);
		if (list) list.push(e.id);
		else shownKids.set(vpar, [e.id]);
	}
	const info = new Map<string, { branch: boolean; last: boolean; depth: number; cols: string }>();
	const rows: Array<Drawn & { plain: boolean }> = [];
	for (const { e, vpar } of order) {
		const sibs = shownKids.get(vpar) as string[];
		const p = vpar === null ? null : (info.get(vpar) as { branch: boolean; last: boolean; depth: number; cols: string });
		const branch = sibs.length !== 1;
		const last = sibs.at(-1) === e.id;
		const depth = (p?.depth ?? 0) + (branch ? 1 : 0);
		const cols = p ? p.cols + (p.branch ? (p.last ? "   " : "│  ") : "") : "";
		info.set(e.id, { branch, last, depth, cols });
		const continues = !branch && vpar !== null;
		const plain =
			continues &&
			(shownKids.get(e.id)?.length ?? 0) === 1 &&
			e.id !== focus &&
			!labels.has(e.id) &&
			e.type !== "branch_summary" &&
			e.type !== "compaction" &&
			!e.error &&
			e.role !== "user";
		rows.push({ key: keyOf(e.id), type: "entry", prefix: cols + (branch ? (last ? "└─ " : "├─ ") : ""), depth, count: 1, stretch: null, plain });
	}
	const out: Drawn[] = [];
	for (let i = 0; i < rows.length; ) {
		let j = i;
		while (j < rows.length && rows[j]?.plain) j++;
		if (j === i) {
			out.push(rows[i] as Drawn);
			i++;
			continue;
		}
		const first = rows[i] as Drawn;
		if (j - i < 3) for (let k = i; k < j; k++) out.push(rows[k] as Drawn);
		else if (unfolded.has(first.key)) for (let k = i; k < j; k++) out.push({ ...(rows[k] as Drawn), stretch: first.key });
		else out.push({ key: `fold:${first.key}`, type: "fold", prefix: first.prefix, depth: first.depth, count: j - i, stretch: first.key });
		i = j;
	}
	return out.map(({ key, type, prefix, depth, count, stretch }) => ({ key, type, prefix, depth, count, stretch }));
}

/** Every row of the tree view, read a window at a time through a fresh connection; and the statements it prepared. */
function windows(
	filter: TreeFilterMode,
	unfolded: string[],
	entryId: string | null,
	bounds: { spillFrom?: number; text?: string } = {},
): { rows: Drawn[]; sql: string[]; cursor: string | null } {
	const store = openStore(index, bounds.spillFrom === undefined ? {} : { readonly: true });
	try {
		const req = { sessionId: SESSION, filter, unfolded, ...(entryId ? { entryId } : {}), ...(bounds.text ? { text: bounds.text } : {}) };
		const first = treeWindow(store, { ...req, count: 120 }, bounds);
		const cursor = first.rows[first.cursor - first.start]?.key ?? null;
		const rows: Drawn[] = [];
		for (let top = 0; top < first.total; top += 1000) {
			const w = treeWindow(store, { ...req, top, count: 1000 }, bounds);
			rows.push(...w.rows.slice(top - w.start).map(drawn));
		}
		expect(rows.length).toBe(first.total);
		return { rows, sql: store.preparedSql(), cursor };
	} finally {
		store.close();
	}
}

/** What the explorer's indexer and the CLI's `index` do: a refresh, then the kept layouts brought up to it. */
function refresh(): void {
	const service = openService(root, index);
	try {
		service.refresh();
		service.keepTreeLayouts();
	} finally {
		service.close();
	}
}

/** Statements that read a session's shape or all its rows, or write (an open laying it out or bringing it up to date). */
const whole = (sql: string[]) =>
	sql.filter((s) => /FROM tree_shape|e\.id BETWEEN|WHERE e\.session_id = \? ORDER BY e\.id|^\s*(INSERT|DELETE|UPDATE)\b/i.test(s));

describe("the tree view of a big session from its kept layout", () => {
	it("the reference walk draws the whole tree's layout (filter all)", () => {
		mkdirSync(join(root, "--w--"), { recursive: true });
		writeFileSync(file, `${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: new Date(clock).toISOString(), cwd: "/w" })}\n${grow(900)}`);
		expect(entries.length).toBeGreaterThan(LAYOUT_MIN);
		refresh();
		const service = openService(root, index);
		try {
			const full = treeRows(service.tree({ sessionId: SESSION }), { unfolded: new Set(), searching: false, keep: null }).map(drawn);
			expect(full.some((r) => r.type === "fold") && full.some((r) => r.prefix.includes("│  ├─ "))).toBe(true);
			expect(reference("all", new Set(), null)).toEqual(full);
		} finally {
			service.close();
		}
	});

	/** Entries under the leaf, each under the one before (a session growing as pi writes it). */
	const atLeaf = (kinds: Array<"user" | "assistant" | "calls" | "result">, from?: string) =>
		kinds
			.map((k, i) => {
				const parentId = i === 0 && from ? from : (entries.at(-1) as Entry).id;
				const id = `${k[0]}${n++}`;
				const role = k === "calls" ? "assistant" : k === "result" ? "toolResult" : k;
				return line({ id, parentId, type: "message", role, callsOnly: k === "calls" });
			})
			.join("");
	const steps = [
		"indexed",
		"grown at its leaf",
		"grown past a reply that only calls tools",
		"back up the path, then a prompt",
		"back to the same entry again",
		"after an old prompt replaced by a later copy of its id under another entry",
		"after a branch off an old entry and a late label",
		"after a compaction at the leaf",
		"after a branch off the first entry",
	];
	let back = "";
	for (const step of steps) {
		it(`${step}: every filter's rows, on a deep entry and unfolded, equal the reference, read without the whole session`, () => {
			if (step === steps[3] || step === steps[4]) {
				// pi's /tree to an entry a few up the current path, then a new turn there (twice: a third child the second time).
				if (step === steps[3]) {
					const byId = new Map(entries.map((e) => [e.id, e]));
					back = (entries.at(-1) as Entry).id;
					for (let k = 0; k < 6; k++) back = byId.get(back)?.parentId as string;
				}
				appendFileSync(file, atLeaf(["user", "assistant", "result", "assistant"], back));
				refresh();
			}
			if (step === steps[6]) {
				// A branch off an old entry, a label on an old entry, more turns: laid out whole again.
				const old = (entries[50] as Entry).id;
				appendFileSync(file, line({ id: `u${n++}`, parentId: old, type: "message", role: "user" }) + grow(60));
				appendFileSync(file, line({ id: `l${n++}`, parentId: (entries.at(-1) as Entry).id, type: "label", target: (entries[120] as Entry).id }));
				refresh();
			}
			if (step === steps[7]) {
				// pi compacts at the leaf (keeping the last few entries of the path), then goes on.
				const byId = new Map(entries.map((e) => [e.id, e]));
				let kept = (entries.at(-1) as Entry).id;
				for (let k = 0; k < 8; k++) kept = byId.get(kept)?.parentId as string;
				appendFileSync(file, line({ id: `c${n++}`, parentId: (entries.at(-1) as Entry).id, type: "compaction", target: kept }) + grow(5));
				refresh();
			}
			if (step === steps[8]) {
				// A branch off the very first entry: every display position after it moves.
				appendFileSync(file, atLeaf(["user", "assistant", "result"], (entries[0] as Entry).id));
				refresh();
			}
			if (step === steps[5]) {
				// A copy of an old prompt's id with other content, a reply now, under an older entry: pi's id map follows
				// the last copy where the first stood, and its subtree moves with it. Then a turn at the leaf, which alone
				// the kept layout could take as an append.
				const k = entries.findIndex((e, i) => i > 300 && e.role === "user");
				const copy: Entry = { ...(entries[k] as Entry), parentId: (entries[30] as Entry).id, role: "assistant" };
				const text = line(copy);
				entries.pop();
				entries[k] = copy;
				appendFileSync(file, text + atLeaf(["user", "assistant"]));
				refresh();
			}
			if (step === steps[1]) {
				// Plain entries under the leaf (they fold onto its stretch), then a reply that only calls tools: the leaf.
				appendFileSync(file, atLeaf(["assistant", "result", "assistant", "result", "assistant", "user", "calls"]));
				refresh();
			}
			if (step === steps[2]) {
				// The tool-calling reply is no longer the leaf: hidden by default and no-tools now.
				appendFileSync(file, atLeaf(["result", "assistant", "result", "user", "assistant"]));
				refresh();
			}
			// The focus inside a long fold of the default view: the open splits it around the entry.
			const folded = reference("default", new Set(), null).filter((r) => r.type === "fold" && r.count >= 7);
			const fold = folded[Math.floor(folded.length / 2)] as Drawn;
			const inFold = reference("default", new Set([fold.stretch as string]), null).filter((r) => r.stretch === fold.stretch);
			const deep = (inFold[3] as Drawn).key.slice(SESSION.length + 1);
			for (const filter of TREE_FILTER_MODES) {
				// The first open after indexing, whatever changed: the indexer kept the layout, the open reads it.
				const laid = windows(filter, [], null);
				expect(laid.rows).toEqual(reference(filter, new Set(), null));
				expect(whole(laid.sql)).toEqual([]);
				const open = windows(filter, [], null);
				expect(open.rows).toEqual(laid.rows);
				expect(open.cursor).toBe(laid.cursor);
				// Folds opened and a focus inside one: every mode once, then the default view (the test's budget).
				if (step !== steps[0] && filter !== "default") continue;
				const folds = laid.rows.filter((r) => r.type === "fold").map((r) => r.stretch as string);
				const opened = [folds[0], folds[Math.floor(folds.length / 2)], folds.at(-1)].filter((k): k is string => k !== undefined);
				const unfolded = windows(filter, opened, deep);
				expect(unfolded.rows).toEqual(reference(filter, new Set(opened), deep));
				expect(whole(unfolded.sql)).toEqual([]);
			}
		});
	}

	it("inside pi: a turn at the leaf is kept in bounded units, a branch far up is left to the explorer's indexer", async () => {
		const bounds = { maxWholeEntries: 1000, maxTail: 2 * 4096 };
		const sliced = async () => {
			const service = openService(root, index);
			try {
				service.refresh();
				return await service.keepTreeLayoutsSliced(bounds);
			} finally {
				service.close();
			}
		};
		// A turn under the last top-level entry (its subtree ends the pre-order), kept by the explorer's indexer; then one
		// at the leaf, inside pi.
		const top = entries.filter((e) => e.parentId === null).at(-1) as Entry;
		appendFileSync(file, atLeaf(["user", "assistant"], top.id));
		refresh();
		appendFileSync(file, atLeaf(["user", "assistant", "result"]));
		expect(await sliced()).toEqual({ appended: TREE_FILTER_MODES.length, whole: 0, left: 0 });
		const kept = windows("default", [], null);
		expect(kept.rows).toEqual(reference("default", new Set(), null));
		expect(whole(kept.sql)).toEqual([]);
		// Off the first entry: every node below it is re-indented, more than the bounds allow in one turn.
		appendFileSync(file, atLeaf(["user", "assistant"], (entries[0] as Entry).id));
		expect(await sliced()).toEqual({ appended: 0, whole: 0, left: TREE_FILTER_MODES.length });
		// The open lays it out itself (in memory; the indexer keeps it): the same rows.
		expect(windows("no-tools", [], null).rows).toEqual(reference("no-tools", new Set(), null));
		refresh();
		const after = windows("default", [], null);
		expect(after.rows).toEqual(reference("default", new Set(), null));
		expect(whole(after.sql)).toEqual([]);
	});

	it("branches nested in each other (a crafted file): past the bound on entries waiting for a child the layout is left, within it kept", () => {
		// Each of the root path's first 60 entries gets a new child at the end of the file: while the indexer lays the
		// session out as it writes it, all 60 wait for their last child.
		const byId = new Map(entries.map((e) => [e.id, e]));
		const pathTo = (id: string | null) => {
			const path: string[] = [];
			for (; id !== null; id = byId.get(id)?.parentId ?? null) path.push(id);
			return path.reverse();
		};
		const deepest = entries.map((e) => pathTo(e.id)).reduce((a, b) => (b.length > a.length ? b : a));
		const waiting = deepest.slice(0, 60).reverse();
		appendFileSync(file, waiting.map((id) => line({ id: `u${n++}`, parentId: id, type: "message", role: "user" })).join(""));
		const capped = openService(root, index);
		try {
			capped.refresh();
			expect(capped.keepTreeLayouts({ maxFrames: 40 })).toEqual({ appended: 0, whole: 0, left: TREE_FILTER_MODES.length });
		} finally {
			capped.close();
		}
		// Left: the open lays it out itself, the same rows.
		expect(windows("default", [], null).rows).toEqual(reference("default", new Set(), null));
		refresh();
		for (const filter of TREE_FILTER_MODES) {
			const kept = windows(filter, [], null);
			expect(kept.rows).toEqual(reference(filter, new Set(), null));
			expect(whole(kept.sql)).toEqual([]);
		}
	});

	it("an open before the indexer's pass lays the tree out in memory: the same rows, and it writes nothing", () => {
		// A turn under the last top-level entry (its subtree ends the pre-order), kept; then a turn at the leaf, which
		// the kept layout could take from its tail.
		const top = entries.filter((e) => e.parentId === null).at(-1) as Entry;
		appendFileSync(file, atLeaf(["user", "assistant"], top.id));
		refresh();
		appendFileSync(file, atLeaf(["user", "assistant", "result"]));
		// Indexed, the kept layouts left stale (a refresh that does not keep them).
		const service = openService(root, index);
		try {
			service.refresh();
		} finally {
			service.close();
		}
		const open = windows("default", [], null);
		expect(open.rows).toEqual(reference("default", new Set(), null));
		expect(open.sql.filter((s) => /^\s*(INSERT|DELETE|UPDATE)\b/i.test(s))).toEqual([]);
		// The indexer's pass brings the layout up from its tail; the next open reads it.
		refresh();
		const kept = windows("default", [], null);
		expect(kept.rows).toEqual(open.rows);
		expect(whole(kept.sql)).toEqual([]);
	});
	it("a session past what the indexer holds in memory is laid out a chunk at a time: every filter's rows equal the reference", () => {
		// Grown past two chunks of its kept shape, then a branch off an old entry (laid out whole again) and a late label.
		appendFileSync(file, grow(1800));
		appendFileSync(file, line({ id: `u${n++}`, parentId: (entries[30] as Entry).id, type: "message", role: "user" }) + grow(20));
		appendFileSync(file, line({ id: `l${n++}`, parentId: (entries.at(-1) as Entry).id, type: "label", target: (entries[5000] as Entry).id }));
		expect(entries.length).toBeGreaterThan(2 * SHAPE_CHUNK);
		const service = openService(root, index);
		try {
			service.refresh();
			// Fewer entries than the session's may be held: the indexer reads its shape a chunk at a time instead.
			expect(service.keepTreeLayouts({ maxWholeEntries: 1000 })).toEqual({ appended: 0, whole: TREE_FILTER_MODES.length, left: 0 });
			// Its scratch files, beside the index, are gone with it.
			expect(readdirSync(tmp.dir).filter((f) => f.startsWith("pi-event-search-layout-"))).toEqual([]);
		} finally {
			service.close();
		}
		for (const filter of TREE_FILTER_MODES) {
			const kept = windows(filter, [], null);
			expect(kept.rows).toEqual(reference(filter, new Set(), null));
			expect(whole(kept.sql)).toEqual([]);
		}
	});
	it("an open with no kept layout of a session past SPILL_FROM lays it out a chunk at a time, read-only: the same rows", () => {
		const store = openStore(index);
		try {
			store.db.exec("DELETE FROM tree_layout");
		} finally {
			store.close();
		}
		const deepest = reference("default", new Set(), null).filter((r) => r.type === "fold" && r.count >= 7);
		const fold = deepest[Math.floor(deepest.length / 2)] as Drawn;
		const deep = (
			(reference("default", new Set([fold.stretch as string]), null).find((r) => r.stretch === fold.stretch && r.type === "entry") as Drawn).key as string
		).slice(SESSION.length + 1);
		for (const filter of TREE_FILTER_MODES) {
			const open = windows(filter, [], null, { spillFrom: 1000 });
			expect(open.rows).toEqual(reference(filter, new Set(), null));
			// Its shape read chunk by chunk, never all its rows at once, and nothing written.
			expect(open.sql.some((q) => /FROM tree_shape WHERE session_id = \? AND chunk = \?/.test(q))).toBe(true);
			expect(open.sql.filter((q) => /WHERE e\.session_id = \? ORDER BY e\.id|^\s*(INSERT|DELETE|UPDATE)\b/i.test(q))).toEqual([]);
		}
		const unfolded = windows("default", [fold.stretch as string], deep, { spillFrom: 1000 });
		expect(unfolded.rows).toEqual(reference("default", new Set([fold.stretch as string]), deep));
		// A filter typed in the tree view: the same rows as when laid out in memory, whose words the tree tests check.
		for (const [filter, text] of [
			["default", "ask u1"],
			["all", "src"],
			["no-tools", "reply"],
			["default", "nowhere-in-this-session"],
		] as const) {
			const typed = windows(filter, [], null, { spillFrom: 1000, text });
			const inMemory = windows(filter, [], null, { spillFrom: Number.POSITIVE_INFINITY, text });
			expect(typed.rows.length > 10, text).toBe(!text.startsWith("nowhere"));
			expect(typed.rows).toEqual(inMemory.rows);
			expect(typed.sql.some((q) => /FROM tree_shape WHERE session_id = \? AND chunk = \?/.test(q))).toBe(true);
		}
	});
	it("a damaged index whose kept shape lost a chunk: such a session is left to the open, not laid out from the rest", () => {
		appendFileSync(file, line({ id: `u${n++}`, parentId: (entries[40] as Entry).id, type: "message", role: "user" }) + grow(3));
		const service = openService(root, index);
		try {
			service.refresh();
			const store = openStore(index);
			try {
				store.db.prepare("DELETE FROM tree_shape WHERE chunk = 1 AND session_id = (SELECT id FROM sessions WHERE public_id = ?)").run(SESSION);
			} finally {
				store.close();
			}
			expect(service.keepTreeLayouts({ maxWholeEntries: 1000 })).toEqual({ appended: 0, whole: 0, left: TREE_FILTER_MODES.length });
		} finally {
			service.close();
		}
	});
});
