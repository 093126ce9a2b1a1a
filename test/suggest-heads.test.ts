/**
 * Did-you-mean (issue 28) looks up one-typo edits only at positions whose head of the word some indexed term starts
 * with (query/suggest.ts knownHead): the suggestions must be those of every edit. Ground truth by hand: each word
 * below is one typo from exactly the terms named, the typo at the last position the pruning keeps, or at the first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { linearSessionService, tempDir } from "./helpers/corpus.js";

const TEXTS = ["the list of orders", "a lost parcel", "happy path", "handle it", "zquorum reached", "quorum lost"];

let t: ReturnType<typeof tempDir>;
let service: HistoryService;

beforeAll(() => {
	t = tempDir("pes-suggest-heads-");
	service = linearSessionService(t.dir, "heads", "0199d000-0000-7000-8000-0000000000e4", TEXTS, (i) => `h${i}`);
});

afterAll(() => {
	service?.close();
	t?.cleanup();
});

/** The terms the note for a word that matches nothing suggests, in its order. */
function suggested(word: string): string[] {
	const r = service.search({ query: word, limit: 5 });
	expect(r.hits).toEqual([]);
	const note = r.notes.find((n) => n.startsWith(`no event holds \`${word}\``));
	expect(note, word).toBeDefined();
	return [...(note ?? "").matchAll(/`([^`]+)` \(\d+ events?\)/g)].map((m) => m[1] as string);
}

describe("did-you-mean with edits pruned by the word's known head", () => {
	it.each([
		// A letter added at the end: the edit is at the last position kept (`list` is the longest known head).
		["listx", ["list"]],
		// Two letters swapped right after the longest known head (`hap`).
		["hapyp", ["happy"]],
		// Replaced at the first position: no term starts with `xo`, only position 0 is kept.
		["xost", ["lost"]],
		// A letter left out inside the known head.
		["hndle", ["handle"]],
		// A letter added before the last one; the head `zquoru` is known.
		["zquoruum", ["zquorum"]],
		// Nothing one typo away.
		["happened", []],
	])("%s suggests %j", (word, want) => {
		expect(suggested(word)).toEqual(want);
	});
});

describe("did-you-mean where more than 64 terms share the word's first three letters", () => {
	// 75 terms start with `lis` (none with `list` but `list` itself): too many to list, so the edits are looked up.
	const crowded = [..."abcdefghijklmnopqrsuvwxyz"].flatMap((a) => [..."abc"].map((b) => `lis${a}${b}`));
	let c: ReturnType<typeof tempDir>;
	let crowdedService: HistoryService;

	beforeAll(() => {
		c = tempDir("pes-suggest-crowded-");
		crowdedService = linearSessionService(c.dir, "crowded", "0199d000-0000-7000-8000-0000000000e5", [crowded.join(" "), "the list of orders"], (i) => `c${i}`);
	});

	afterAll(() => {
		crowdedService?.close();
		c?.cleanup();
	});

	it.each([
		["listx", ["list"]],
		// The last of them in byte order: a list cut at 64 terms would not know it.
		["lisyax", ["lisya"]],
		["lisdbb", ["lisbb", "lisdb"]],
	])("%s suggests %j", (word, want) => {
		const r = crowdedService.search({ query: word, limit: 5 });
		const note = r.notes.find((n) => n.startsWith(`no event holds \`${word}\``)) ?? "";
		expect([...note.matchAll(/`([^`]+)` \(\d+ events?\)/g)].map((m) => m[1])).toEqual(want);
	});
});
