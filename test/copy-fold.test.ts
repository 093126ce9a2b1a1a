/** CopyFold (src/index/copy-fold.ts): forked copies of an entry rank after every distinct event, in the order met. */
import { describe, expect, it } from "vitest";
import { CopyFold } from "../src/index/copy-fold.js";

/** Events in rank order as `entry` letters (same letter: copies of one entry, same line); `line` tells lines apart. */
function fold(events: string[]): CopyFold {
	const f = new CopyFold();
	events.forEach((e, i) => {
		const [entry, line = "x"] = e.split(":");
		f.add({ entry_id: entry as string, line_hash: line }, { eid: i, best: 0, n: 1, fid: i });
	});
	return f;
}

describe("CopyFold", () => {
	const cases: Array<[string, string[], number, number, Array<[number, number]>]> = [
		// name, events in rank order, from, to, expected [eid, copy_rank]
		[
			"no copies: the order as met",
			["a", "b", "c"],
			0,
			3,
			[
				[0, 1],
				[1, 1],
				[2, 1],
			],
		],
		[
			"a copy after every distinct event",
			["a", "a", "b", "c"],
			0,
			4,
			[
				[0, 1],
				[2, 1],
				[3, 1],
				[1, 2],
			],
		],
		[
			"copies keep their order and count up",
			["a", "b", "a", "b", "a"],
			0,
			5,
			[
				[0, 1],
				[1, 1],
				[2, 2],
				[3, 2],
				[4, 3],
			],
		],
		[
			"another line of the same entry is not a copy",
			["a:1", "a:2", "a:1"],
			0,
			3,
			[
				[0, 1],
				[1, 1],
				[2, 2],
			],
		],
		[
			"a page within the distinct events",
			["a", "a", "b", "c"],
			1,
			3,
			[
				[2, 1],
				[3, 1],
			],
		],
		[
			"a page reaching the copies",
			["a", "a", "b"],
			1,
			3,
			[
				[2, 1],
				[1, 2],
			],
		],
	];
	it.each(cases)("%s", (_name, events, from, to, expected) => {
		expect(
			fold(events)
				.slice(from, to)
				.map((c) => [c.eid, c.copy_rank]),
		).toEqual(expected);
	});

	it("counts distinct events as they are added", () => {
		expect(fold(["a", "a", "b"]).distinct.map((c) => c.eid)).toEqual([0, 2]);
	});
});
