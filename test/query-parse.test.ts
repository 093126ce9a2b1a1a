import { describe, expect, it } from "vitest";
import { MAX_TERMS, parseQuery } from "../src/query/query-parse.js";

describe("parseQuery", () => {
	it.each([
		["implicit AND of words", "webhook retry", '"webhook" AND "retry"'],
		["a quoted phrase stays one term", '"connection refused" port', '"connection refused" AND "port"'],
		["punctuation joins into a phrase of its words", "src/App.tsx", '"src app tsx"'],
		["FTS5 operators are literal words", "a OR b NOT c", '"a" AND "or" AND "b" AND "not" AND "c"'],
		["NEAR and parentheses are literal", "NEAR(x y)", '"near x" AND "y"'],
		["column syntax is literal", "user_text:secret", '"user text secret"'],
		["star and caret are dropped, not operators", "^foo* bar*", '"foo" AND "bar"'],
		["an unbalanced quote runs to the end", 'say "hello world', '"say" AND "hello world"'],
		["SQL is just words", "'; DROP TABLE events; --", '"drop" AND "table" AND "events"'],
		["CJK becomes a phrase of bigrams", "銀色のカワウソ", '"銀色 色の のカ カワ ワウ ウソ"'],
	])("%s", (_name, input, match) => {
		expect(parseQuery(input).match).toBe(match);
	});

	it("returns no match and a note when nothing searchable is left", () => {
		const q = parseQuery('*** "" ()');
		expect(q.match).toBeNull();
		expect(q.notes.join(" ")).toMatch(/no letters or digits/);
	});

	it("marks the last unfinished term as a prefix in interactive mode only", () => {
		expect(parseQuery("webhook ret", { prefix: true }).match).toBe('"webhook" AND "ret" *');
		expect(parseQuery("webhook ret ", { prefix: true }).match).toBe('"webhook" AND "ret"');
		expect(parseQuery('"a b"', { prefix: true }).match).toBe('"a b"');
		expect(parseQuery("webhook ret").match).toBe('"webhook" AND "ret"');
	});

	it("bounds a 10 KB paste to a fixed number of terms with a note", () => {
		const q = parseQuery(Array.from({ length: 2000 }, (_, i) => `w${i}`).join(" "));
		expect(q.terms.length).toBeLessThanOrEqual(MAX_TERMS);
		expect(q.notes.length).toBeGreaterThan(0);
	});

	it("treats a lone CJK character at a term's edge as a cut bigram", () => {
		expect(parseQuery("问题，问").match).toBe('"问题 问" *');
		expect(parseQuery("题，问题").match).toBe('"问题"');
		expect(parseQuery("问").match).toBe('"问" *');
	});

	it("treats control characters as spaces", () => {
		expect(parseQuery("a\u0000b\u001bc").match).toBe('"a" AND "b" AND "c"');
	});
});
