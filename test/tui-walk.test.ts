/**
 * The tree walk on the real fixture corpus (a real HistoryService over a temp copy; ground truth from the
 * generator's manifest): parents across files, fork candidates at abandoned branches and forked sessions,
 * omitted images, head and tail of large results.
 */
import { describe, expect, it } from "vitest";
import { lineText } from "../components/core/styled.js";
import { findForkAbove, loadEvent, loadPreview } from "../components/event/loaders.js";
import { buildEventDoc, buildPreview, hitHighlights } from "../components/event/read-view.js";
import { walkChild, walkParent, walkSibling } from "../components/event/trace-rows.js";
import { pathLine } from "../components/event/trace-view.js";
import { loadManifest } from "./helpers/corpus.js";
import { indexedCorpus } from "./helpers/indexed-corpus.js";

const manifest = loadManifest();
const corpus = indexedCorpus("pes-tui-walk-");

function needle(plantedAs: string, index = 0) {
	const n = manifest.needles.filter((x) => x.plantedAs === plantedAs)[index];
	if (!n) throw new Error(`no needle ${plantedAs}`);
	return n;
}

describe("walking the real corpus", () => {
	it("at the parent of an abandoned-branch message, offers every child (the manifest's fork)", async () => {
		const occ = needle("user.text(abandoned-branch)", 1).occurrences[0];
		if (!occ?.entryId) throw new Error("no occurrence");
		const data = await loadEvent(corpus.service, { sessionId: occ.sessionId, entryId: occ.entryId });
		expect(data.read.classification.branchState).toBe("alternate");
		const up = walkParent(data);
		if (!("go" in up) || up.go.kind !== "event") throw new Error(`no parent: ${JSON.stringify(up)}`);
		const parent = await loadEvent(corpus.service, up.go.ref);
		const down = walkChild(parent);
		if (!("choose" in down)) throw new Error(`expected a choice, got ${JSON.stringify(down)}`);
		expect(down.choose.map((c) => c.ref.entryId)).toContain(occ.entryId);
		expect(down.choose.length).toBeGreaterThanOrEqual(2);
		// Its siblings are the other branches from the same parent.
		const side = walkSibling(data, 1);
		const back = walkSibling(data, -1);
		expect("go" in side || "go" in back).toBe(true);
	});

	it("finds the nearest fork above an abandoned branch (H), and none above the first entries of a session", async () => {
		const occ = needle("user.text(abandoned-branch)", 1).occurrences[0];
		if (!occ?.entryId) throw new Error("no occurrence");
		const start = { sessionId: occ.sessionId, entryId: occ.entryId };
		const data = await loadEvent(corpus.service, start);
		const down = walkChild(data);
		if (!("go" in down) || down.go.kind !== "event") throw new Error("expected one child");
		const fork = await findForkAbove(corpus.service, down.go.ref);
		expect(fork?.steps).toBe(2);
		expect(fork?.branches).toBeGreaterThanOrEqual(2);
		const up = walkParent(data);
		expect("go" in up && up.go.kind === "event" && fork && up.go.ref.entryId === fork.ref.entryId).toBe(true);
		const root = data.read.neighbors.before[0];
		if (!root) throw new Error("no ancestors");
		expect(await findForkAbove(corpus.service, root)).toBeNull();
		expect(lineText(pathLine(data))).toMatch(/^path ⌂ (\w+ › … \d+|… \d+\+) › \w+ › \w+ › ● here \(depth \d+\+?\)$/);
	});

	it("crosses into the parent session for a parent that /fork dropped from the child file", async () => {
		const found = corpus.service.search({ query: "review src/lib/retry.ts risky", limit: 50 }).hits.find((h) => h.sessionId.startsWith("019be322"));
		if (!found) throw new Error("fixture event not found");
		const data = await loadEvent(corpus.service, found);
		const up = walkParent(data);
		if (!("go" in up) || up.go.kind !== "event") throw new Error(`no parent: ${JSON.stringify(up)}`);
		expect(up.go.ref.sessionId).not.toBe(found.sessionId);
		expect(up.note).toMatch(/parent session/);
	});

	it("continues from a parent session's last entry into the sessions forked from it", async () => {
		const forked = manifest.files.filter((f) => f.parentSessionRel && f.sessionId);
		expect(forked.length).toBeGreaterThan(0);
		let crossed = 0;
		for (const f of manifest.files.filter((x) => x.isSession && x.leafIdOnLoad && x.sessionId)) {
			const data = await loadEvent(corpus.service, { sessionId: f.sessionId as string, entryId: f.leafIdOnLoad as string });
			const down = walkChild(data);
			const candidates = "choose" in down ? down.choose : "go" in down && down.go.kind === "event" ? [{ ref: down.go.ref }] : [];
			crossed += candidates.filter((c) => c.ref.sessionId !== f.sessionId).length;
		}
		expect(crossed).toBeGreaterThan(0);
	});

	it("names an omitted image with its type and size, next to the text it came with", async () => {
		const hit = corpus.service.search({ query: "src/db/pool.ts のテスト", limit: 10 }).hits.find((h) => h.sessionId.startsWith("019d6c4c"));
		if (!hit) throw new Error("fixture event not found");
		const data = await loadEvent(corpus.service, hit);
		const doc = buildEventDoc(data, { chunks: {}, find: null, highlights: [], focusFragment: null, width: 100, wrap: true });
		const text = doc.lines.map((l) => lineText(l.line)).join("\n");
		expect(text).toMatch(/⊘ image image\/png · \d+ B · not shown {2}\(message\.content\.1\)/);
		expect(text.indexOf("user.text:0")).toBeLessThan(text.indexOf("⊘ image"));
	});

	it("shows head and tail of a >100 KB result, and previews around the match", async () => {
		const n = needle("toolResult.text(>100KB)");
		const occ = n.occurrences[0];
		if (!occ?.entryId) throw new Error("no occurrence");
		const data = await loadEvent(corpus.service, { sessionId: occ.sessionId, entryId: occ.entryId });
		const f = data.read.fragments[0];
		expect(f && f.totalChars > 100_000).toBe(true);
		expect(data.tails[f?.id ?? ""]?.range[1]).toBe(f?.totalChars);
		const doc = buildEventDoc(data, { chunks: {}, find: null, highlights: [], focusFragment: null, width: 100, wrap: true });
		expect(doc.lines.map((l) => lineText(l.line)).join("\n")).toMatch(/⋯ loading chars 4,000–\d{1,3}(,\d{3})+ \(\d{1,3}(,\d{3})+\) ⋯/);
		const hit = corpus.service.search({ query: n.text, limit: 50 }).hits.find((h) => h.sessionId === occ.sessionId);
		if (!hit) throw new Error("needle not found");
		const preview = buildPreview(await loadPreview(corpus.service, hit), hitHighlights(hit), 80, 6, Date.now());
		expect(preview.lines.map(lineText).join("\n")).toContain(n.text);
	});
});
