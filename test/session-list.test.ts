/**
 * The session browser's listing (service → query/sessions → index/session-list) over the fixture corpus: every
 * session with its name, cwd, size, leaf, fork points and lineage. Ground truth: the generator's manifest (ids,
 * cwds, entries, leaves, parents and how each child was made) and fork points counted from the raw files.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionListing } from "../src/shared/types.js";
import { type IndexedCorpus, indexedCorpus, readEntries } from "./helpers/corpus.js";

let c: IndexedCorpus;
let all: SessionListing[];
beforeAll(() => {
	c = indexedCorpus("pes-session-list-", { copy: false });
	all = c.service.sessions().sessions;
});
afterAll(() => c.cleanup());

const sessionFiles = () => c.manifest.files.filter((f) => f.isSession);
const byId = (id: string) => all.find((s) => s.id === id);

/** Fork points of a file straight from its lines: parent ids that two or more entries name. */
function forkPoints(file: string): number {
	const children = new Map<string, Set<string>>();
	for (const e of readEntries(join(c.corpus, file), { skipInvalid: true }).slice(1)) {
		if (typeof e.id !== "string" || typeof e.parentId !== "string") continue;
		const kids = children.get(e.parentId) ?? new Set<string>();
		kids.add(e.id);
		children.set(e.parentId, kids);
	}
	return [...children.values()].filter((k) => k.size > 1).length;
}

describe("sessions listing", () => {
	it("lists every session once, newest activity first, with its cwd, file and size", () => {
		const want = sessionFiles();
		expect(all.map((s) => s.id).sort()).toEqual(want.map((f) => f.sessionId).sort());
		const times = all.map((s) => Date.parse(s.lastAt ?? ""));
		expect(times).toEqual([...times].sort((a, b) => b - a));
		for (const f of want) {
			const s = byId(f.sessionId as string) as SessionListing;
			expect(s.cwd).toBe(f.cwd);
			expect(s.file.endsWith(f.file.split("/").pop() as string)).toBe(true);
			// Files whose lines pi itself would read differently (damaged, duplicated, legacy) are the reliability tests' business.
			if (f.quirks.length === 0 || f.quirks.every((q) => /fork|clone|newSession|labels-on|multiple-roots/.test(q))) expect(s.events, f.file).toBe(f.entries);
			if (f.headerVersion === 3 && f.leafIdOnLoad) expect(s.leafId, f.file).toBe(f.leafIdOnLoad);
		}
	});

	it("counts fork points as the files hold them", () => {
		let branched = 0;
		for (const f of sessionFiles().filter((x) => x.headerVersion === 3)) {
			const want = forkPoints(f.file);
			if (want > 0) branched++;
			expect(byId(f.sessionId as string)?.branches, f.file).toBe(want);
		}
		expect(branched).toBeGreaterThan(2);
	});

	it("names each child's parent and tells /clone from /fork, --fork and a new session naming a parent", () => {
		const files = sessionFiles();
		const idOfFile = new Map(files.map((f) => [f.file, f.sessionId as string]));
		const want = (q: string[]) => (q.some((x) => x.startsWith("/clone")) ? "clone" : q.some((x) => x.startsWith("newSession")) ? "new" : "fork");
		let children = 0;
		for (const f of files) {
			const s = byId(f.sessionId as string) as SessionListing;
			if (!f.parentSessionRel) {
				expect(s.parent).toBeNull();
				continue;
			}
			children++;
			expect(s.parent?.id, f.file).toBe(idOfFile.get(f.parentSessionRel));
			expect(s.parent?.origin, `${f.file} ${f.quirks.join(",")}`).toBe(want(f.quirks));
		}
		expect(children).toBeGreaterThanOrEqual(8);
		for (const s of all) expect(s.forks, s.id).toBe(files.filter((f) => f.parentSessionRel && idOfFile.get(f.parentSessionRel) === s.id).length);
	});

	it("scopes to a workspace on path-component boundaries, as the search does", () => {
		const root = "/home/alice/code/payments-api";
		const scoped = c.service.sessions({ workspace: root });
		const want = sessionFiles()
			.filter((f) => f.cwd === root || f.cwd?.startsWith(`${root}/`))
			.map((f) => f.sessionId)
			.sort();
		expect(scoped.sessions.map((s) => s.id).sort()).toEqual(want);
		// The nested ledger service is in; payments-api-v2 (a string prefix) and payments/api are not.
		expect(scoped.sessions.some((s) => s.cwd.endsWith("services/ledger"))).toBe(true);
		expect(scoped.total).toBe(want.length);
		expect(scoped.truncated).toBe(false);
	});
});
