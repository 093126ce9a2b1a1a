/** Find and continuous scrolling, the pure parts: windows merged into runs and gaps, find's order and wrap-around, the stack's chunk requests. */
import { describe, expect, it } from "vitest";
import { chunkFor, covers, fragmentLayout } from "../components/event/fragment-windows.js";
import { findInEvent } from "../components/event/loaders.js";
import { initialState, reduce, type State, topLoc } from "../components/root/state.js";
import type { FragmentWindow } from "../src/shared/types.js";
import { makeEventData, makeHits } from "./helpers/ink.js";

const w = (from: number, text: string, total = 100): FragmentWindow => ({
	id: "f",
	kind: "tool.result",
	text,
	range: [from, from + text.length],
	totalChars: total,
	truncated: true,
});

describe("fragmentLayout", () => {
	it.each<[string, FragmentWindow[], number, Array<[number, number, string]>, Array<[number, number]>]>([
		["head only", [w(0, "abcd")], 10, [[0, 4, "abcd"]], [[4, 10]]],
		[
			"head and tail",
			[w(0, "ab"), w(8, "ij")],
			10,
			[
				[0, 2, "ab"],
				[8, 10, "ij"],
			],
			[[2, 8]],
		],
		["touching windows join", [w(0, "ab"), w(2, "cd")], 4, [[0, 4, "abcd"]], []],
		["overlap adds only what is new", [w(0, "abcd"), w(2, "cdef")], 6, [[0, 6, "abcdef"]], []],
		["a window inside another adds nothing", [w(0, "abcdef"), w(2, "cd")], 6, [[0, 6, "abcdef"]], []],
		[
			"any order",
			[w(8, "ij"), w(0, "ab"), w(4, "ef")],
			10,
			[
				[0, 2, "ab"],
				[4, 6, "ef"],
				[8, 10, "ij"],
			],
			[
				[2, 4],
				[6, 8],
			],
		],
	])("%s", (_name, windows, total, runs, gaps) => {
		const l = fragmentLayout(windows, total);
		expect(l.runs.map((r) => [r.from, r.to, r.text])).toEqual(runs);
		expect(l.gaps).toEqual(gaps);
	});

	it("knows what is loaded, and which chunk fills a gap from each side", () => {
		const l = fragmentLayout([w(0, "ab"), w(8, "ij")], 10_000);
		expect([covers(l, 0, 2), covers(l, 1, 2), covers(l, 8, 1), covers(l, 5, 1)]).toEqual([true, false, true, false]);
		expect(chunkFor([2, 9000], "start")).toBe(2);
		expect(chunkFor([2, 9000], "end")).toBe(5000);
		expect(chunkFor([2, 3000], "end")).toBe(2);
	});
});

describe("findInEvent", () => {
	const texts: Record<string, string> = { a: "one two ONE", b: "nothing", c: "three one" };
	const read = async (fid: string) => texts[fid] ?? "";
	const ids = ["a", "b", "c"];
	it.each<[string, 1 | -1, { fid: string; at: number } | null, { fid: string; at: number } | null, boolean]>([
		["one", 1, null, { fid: "a", at: 0 }, false],
		["one", 1, { fid: "a", at: 0 }, { fid: "a", at: 8 }, false],
		["one", 1, { fid: "a", at: 8 }, { fid: "c", at: 6 }, false],
		["one", 1, { fid: "c", at: 6 }, { fid: "a", at: 0 }, true],
		["one", -1, null, { fid: "c", at: 6 }, false],
		["one", -1, { fid: "c", at: 6 }, { fid: "a", at: 8 }, false],
		["one", -1, { fid: "a", at: 0 }, { fid: "c", at: 6 }, true],
		["three", 1, { fid: "c", at: 0 }, { fid: "c", at: 0 }, true],
		["absent", 1, null, null, false],
	])("%s dir %s from %j", async (text, dir, from, match, wrapped) => {
		expect(await findInEvent(ids, read, text, dir, from)).toEqual({ match, wrapped: match ? wrapped : false });
	});
});

describe("the event stack asks for the text near the screen", () => {
	const SIZE = { columns: 80, rows: 24 };
	const lines = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `line ${from + i}`).join("\n");

	function opened(): State {
		let s = reduce(initialState({ size: SIZE }), {
			type: "search-done",
			seq: 1,
			more: 0,
			result: { hits: makeHits(1), notes: [], index: { sessions: 1, events: 1, freshAt: null, pending: 0 } },
		});
		s = reduce(s, { type: "open" });
		const head = lines(40);
		const data = makeEventData("e0", { text: head, totalChars: 100_000 });
		return reduce(s, { type: "event-done", key: "s1/e0", data, error: null });
	}

	it("scrolling down to the gap asks for the chunk after the head; it fills in place, the scroll stays", () => {
		let s = opened();
		expect(topLoc(s)?.wanted).toEqual([]);
		// The event view's PgDn, until the gap line after the 40 head lines comes near the screen.
		for (let i = 0; i < 6 && (topLoc(s)?.wanted.length ?? 0) === 0; i++) s = reduce({ ...s, focus: "list" }, { type: "page", dir: 1 });
		const loc = topLoc(s);
		const head = lines(40).length;
		expect(loc?.wanted.map((x) => [x.fid, x.offset, x.onLoad])).toEqual([["user.text:0", head, "none"]]);
		const scroll = loc?.scroll;
		const more = `\n${lines(30, 40)}`;
		s = reduce(s, {
			type: "page-done",
			key: "s1/e0",
			fragmentId: "user.text:0",
			offset: head,
			window: { id: "user.text:0", kind: "user.text", text: more, range: [head, head + more.length], totalChars: 100_000, truncated: true },
			error: null,
		});
		expect(topLoc(s)?.scroll).toBe(scroll);
		expect(topLoc(s)?.chunks["user.text:0"]).toHaveLength(1);
		expect(topLoc(s)?.wanted).toEqual([]);
	});
});
