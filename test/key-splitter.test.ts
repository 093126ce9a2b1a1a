/**
 * The key splitter: however the terminal chunks a sequence of keys, the explorer ends in the same state as when the
 * keys came one by one (held Backspace, `C-u` then a letter, `hhh` in one read), and readline keys edit like a shell.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeySplitter, MAX_PASTE_CHARS } from "../components/core/key-splitter.js";
import { initialState, reduce, type State } from "../components/root/state.js";

const SIZE = { columns: 80, rows: 24 };

/** Feeds chunks through one splitter into the reducer, flushing after the last chunk like the idle timer would. */
function feed(s: State, chunks: string[]): State {
	const splitter = new KeySplitter();
	let out = s;
	const keys = [...chunks.flatMap((c) => splitter.push(c)), ...splitter.flush()];
	for (const k of keys) out = reduce(out, { type: "key", input: k.input, key: k.key, ...(k.paste ? { paste: true } : {}) });
	return out;
}

const typed = (keys: string[], start = "") => feed({ ...initialState({ size: SIZE }), query: { text: start, cursor: start.length } }, keys).query;

describe("key splitter", () => {
	it.each<[string, string[], string, string]>([
		["held Backspace in one read", ["retry logic webhook", "\x7f".repeat(19)], "", ""],
		["Backspace between letters in one read", ["rex\x7ftry"], "", "retry"],
		["Ctrl+U then a letter", ["\x15x"], "abc def", "x"],
		["Ctrl+W", ["\x17"], "fix flaky test", "fix flaky "],
		["Alt+Backspace deletes a word", ["\x1b\x7f"], "path/to-file", "path/to-"],
		["Ctrl+A, Ctrl+K", ["\x01\x0b"], "abc", ""],
		["Ctrl+A then Delete deletes forward", ["\x01\x1b[3~"], "abc", "bc"],
		["Alt+B, Alt+B, Ctrl+K", ["\x1bb\x1bb\x0b"], "one two three", "one "],
		["Alt+B, Alt+F, Ctrl+K", ["\x1bb\x1bb\x1bf\x0b"], "one two three", "one two"],
		["Ctrl+E after ←", ["\x1b[D\x1b[Dx\x05y"], "ab", "xaby"],
		["a bracketed paste is text, newlines become spaces", ["\x1b[200~line one\nq?\x1b[201~"], "", "line one q?"],
	])("%s", (_name, chunks, start, text) => {
		expect(typed(chunks, start).text).toBe(text);
	});

	it.each<[string, string, "f4" | "f6"]>([
		["F4 (xterm)", "\x1bOS", "f4"],
		["F4 (vt220)", "\x1b[14~", "f4"],
		["F6", "\x1b[17~", "f6"],
	])("reads %s as its function key", (_name, seq, key) => {
		const [k] = [...new KeySplitter().push(seq)];
		expect(k?.key[key]).toBe(true);
	});

	it("a filter value typed in one read with its Enter keeps every character (held Backspace too)", () => {
		let s = feed(initialState({ size: SIZE }), ["\x0f", "\x1b[B\x1b[B\x1b[B\x1b[B", "\r"]);
		s = feed(s, ["releasx\x7fe\r\x0f"]);
		expect(s.hits.filters).toEqual({ label: "release" });
	});

	it("walks three steps for `hhh` sent at once in the event view, like three separate h presses", () => {
		const splitter = new KeySplitter();
		const keys = splitter.push("hhh");
		expect(keys.map((k) => k.input)).toEqual(["h", "h", "h"]);
	});

	it("waits for the rest of an escape sequence cut between reads", () => {
		const splitter = new KeySplitter();
		expect(splitter.push("\x1b[")).toEqual([]);
		expect(splitter.push("A")).toEqual([{ input: "", key: { upArrow: true } }]);
		expect(splitter.push("\x1b")).toEqual([]);
		expect(splitter.flush()).toEqual([{ input: "", key: { escape: true } }]);
	});

	// Keys a user types in the query line (Escape alone is left out: a lone ESC followed by a letter is Alt+letter to
	// any terminal program unless time passes between them, which only the flush after a pause can tell).
	const KEYS = [
		"a",
		"b",
		"q",
		"h",
		" ",
		"é",
		"青",
		"🐢",
		"\x7f",
		"\x15",
		"\x17",
		"\x01",
		"\x05",
		"\x0b",
		"\x1bb",
		"\x1bf",
		"\x1b\x7f",
		"\x1b[3~",
		"\x1b[D",
		"\x1b[C",
		"\x1b[H",
		"\x1b[F",
	];

	it("gives the same state for any chunking of a key sequence as for one key per read", () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom(...KEYS), { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 10 }), (keys, cuts) => {
				const all = keys.join("");
				const points = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((x, y) => x - y);
				const chunks: string[] = [];
				let from = 0;
				for (const p of points) {
					chunks.push(all.slice(from, p));
					from = p;
				}
				chunks.push(all.slice(from));
				const slow = feed(initialState({ size: SIZE }), keys);
				const burst = feed(initialState({ size: SIZE }), chunks);
				expect(burst.query).toEqual(slow.query);
				expect(burst.hits.results.seq).toBe(slow.hits.results.seq);
			}),
			{ numRuns: 300 },
		);
	});
});

/** An SGR (mode 1006) mouse report: button, 1-based column and row, press (M) or release (m). */
const sgr = (button: number, x: number, y: number, release = false) => `\x1b[<${button};${x};${y}${release ? "m" : "M"}`;
/** A legacy (mode 1000) mouse report: ESC [ M and three bytes, each value + 32. */
const x10 = (button: number, x: number, y: number) => `\x1b[M${String.fromCharCode(button + 32, x + 32, y + 32)}`;

describe("key splitter: mouse reports", () => {
	const keysOf = (chunks: string[]) => {
		const s = new KeySplitter();
		return [...chunks.flatMap((c) => s.push(c)), ...s.flush()];
	};

	it.each<[string, string[], Array<"up" | "down" | string>]>([
		["SGR wheel up", [sgr(64, 10, 5)], ["up"]],
		["SGR wheel down", [sgr(65, 120, 40)], ["down"]],
		["SGR wheel with Ctrl held (bit 16) is still the wheel", [sgr(64 + 16, 3, 3)], ["up"]],
		["SGR left press and release are dropped", [sgr(0, 4, 4), sgr(0, 4, 4, true)], []],
		["SGR motion with a button is dropped", [sgr(32, 9, 9)], []],
		["SGR horizontal wheel (66/67) is dropped", [sgr(66, 1, 1), sgr(67, 1, 1)], []],
		["legacy wheel up and down", [x10(64, 10, 5) + x10(65, 10, 5)], ["up", "down"]],
		["legacy report whose bytes look like letters and a CSI final", [x10(65, 33, 65)], ["down"]],
		["a report cut in three reads", ["\x1b[<6", "5;12;", "7M"], ["down"]],
		["a legacy report cut after ESC [ M", ["\x1b[M", "`!!"], ["up"]],
		["text around reports stays text", [`a${sgr(64, 1, 1)}b${sgr(0, 2, 2)}c`], ["a", "up", "b", "c"]],
	])("%s", (_name, chunks, expected) => {
		const names = keysOf(chunks).map((k) => (k.key.wheelUp ? "up" : k.key.wheelDown ? "down" : k.input));
		expect(names).toEqual(expected);
	});

	it("a wheel report carries the pointer's column and row (SGR and legacy)", () => {
		expect(keysOf([sgr(65, 120, 40)])[0]?.key).toEqual({ wheelDown: true, x: 120, y: 40 });
		expect(keysOf([x10(64, 10, 5)])[0]?.key).toEqual({ wheelUp: true, x: 10, y: 5 });
	});

	it("a legacy report split by Ink after ESC [ M still waits for its three bytes (as use-keys flushes after each read)", () => {
		const s = new KeySplitter();
		const out = s.push("\x1b[M");
		expect(s.waiting).toBe(false);
		out.push(...s.push("a!!"));
		expect(out.map((k) => k.key.wheelDown === true)).toEqual([true]);
	});

	it("never leaks a mouse report into the query line, however it is chunked (any button, any position)", () => {
		const report = fc.oneof(
			fc
				.tuple(fc.integer({ min: 0, max: 127 }), fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 300 }), fc.boolean())
				.map(([b, x, y, r]) => sgr(b, x, y, r)),
			fc.tuple(fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 94 }), fc.integer({ min: 1, max: 94 })).map(([b, x, y]) => x10(b, x, y)),
		);
		fc.assert(
			fc.property(fc.array(report, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (reports, cuts) => {
				const all = `ab${reports.join("")}`;
				const points = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((x, y) => x - y);
				const chunks: string[] = [];
				let from = 0;
				for (const p of points) {
					chunks.push(all.slice(from, p));
					from = p;
				}
				chunks.push(all.slice(from));
				// Typed into the query line: the query is what was typed, whatever the reports were.
				expect(feed(initialState({ size: SIZE }), chunks).query.text).toBe("ab");
			}),
			{ numRuns: 300 },
		);
	});
});

describe("an unterminated bracketed paste (issue 32 item 8)", () => {
	const ctrlC = new KeySplitter().push("\x03");

	it("Ctrl+C still arrives after a lone paste start", () => {
		const s = new KeySplitter();
		const keys = [...s.push("\x1b[200~half a paste"), ...s.push("\x1b"), ...s.push("\x03")];
		expect(keys.at(-1)).toEqual(ctrlC[0]);
		expect(keys.filter((k) => k.paste).map((k) => k.input)).toEqual(["half a paste\x1b"]);
		// And keys are keys again afterwards.
		expect(s.push("q")).toEqual([{ input: "q", key: {} }]);
	});

	it("a paste without an end marker ends after its bound, and the next key is a key", () => {
		const s = new KeySplitter();
		const chunk = "x".repeat(64 * 1024);
		const keys = [...s.push("\x1b[200~")];
		for (let i = 0; i * chunk.length <= MAX_PASTE_CHARS; i++) keys.push(...s.push(chunk));
		expect(keys.filter((k) => k.paste)).toHaveLength(1);
		expect(s.push("\x1b[B")).toEqual([{ input: "", key: { downArrow: true } }]);
	});
});
