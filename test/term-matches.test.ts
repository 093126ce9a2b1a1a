/**
 * A snippet's matches in ASCII text found by regular expressions (src/query/term-matches.ts asciiMatcher) are the
 * spans tokenizing finds: hand-checked cases, then random texts and terms against the token matches, span for span
 * and in the same order.
 */
import { describe, expect, it } from "vitest";
import { tokenize } from "../src/project/tokens.js";
import type { QueryTerm } from "../src/query/query-parse.js";
import { asciiMatcher, type Match, tokenMatches } from "../src/query/term-matches.js";

const term = (tokens: string[], extra: Partial<QueryTerm> = {}): QueryTerm => ({
	raw: tokens.join("_"),
	tokens,
	phrase: tokens.length > 1,
	prefix: false,
	...extra,
});

function viaRegex(text: string, terms: QueryTerm[]): { out: Match[]; last: number | null } {
	const matcher = asciiMatcher(terms);
	if (!matcher) throw new Error("not an ASCII matcher");
	const out: Match[] = [];
	const last = matcher(text, 0, text.length, out);
	return { out, last };
}

function viaTokens(text: string, terms: QueryTerm[]): { out: Match[]; last: number | null } {
	const tokens = tokenize(text, true, 0);
	const out: Match[] = [];
	tokenMatches(tokens, terms, out);
	return { out, last: tokens.at(-1)?.end ?? null };
}

const spans = (text: string, out: Match[]) => out.map((m) => `${m.term}:${text.slice(m.start, m.end)}@${m.start}`);

describe("asciiMatcher", () => {
	it.each([
		["a snake_case identifier is a phrase of its words", "x Retry_With_Backoff gave up", [term(["retry", "with", "backoff"])], ["0:Retry_With_Backoff@2"]],
		["the same words apart in prose match the phrase too", "retry with\n backoff", [term(["retry", "with", "backoff"])], ["0:retry with\n backoff@0"]],
		["overlapping phrase matches each count", "a a a", [term(["a", "a"])], ["0:a a@0", "0:a a@2"]],
		["a word inside a longer word is no match", "retrying retry1 xretry", [term(["retry"])], []],
		["a camelCase part matches a one-word term", "handleWebhook(req)", [term(["webhook"]), term(["handlewebhook"])], ["0:Webhook@6", "1:handleWebhook@0"]],
		["a part after capitals", "new HTTPServer()", [term(["server"])], ["0:Server@8"]],
		["a prefix term: the word and its part", "handleWebhook handler", [term(["hand"], { prefix: true })], ["0:handleWebhook@0", "0:handler@14", "0:handle@0"]],
		["a prefix phrase's last word", "retry with backoffs", [term(["with", "back"], { prefix: true })], ["0:with backoffs@6"]],
		["other forms of a word, whole and as a part", "it retried; autoRetried", [term(["retry"], { forms: ["retried"] })], ["0:retried@3", "0:Retried@16"]],
		["digits are words", "x9 9x 9", [term(["9x"]), term(["9"])], ["0:9x@3", "1:9@6"]],
		["a phrase is not matched across parts", "retryWith backoff", [term(["with", "backoff"])], []],
	])("%s", (_name, text, terms, expected) => {
		expect(spans(text, viaRegex(text, terms).out)).toEqual(expected);
		expect(viaRegex(text, terms)).toEqual(viaTokens(text, terms));
	});

	it("is null for terms with a token or form outside lowercase ASCII letters and digits", () => {
		expect(asciiMatcher([term(["café"])])).toBeNull();
		expect(asciiMatcher([term(["retry"], { forms: ["rétry"] })])).toBeNull();
		expect(asciiMatcher([term(["a.b"])])).toBeNull();
		expect(asciiMatcher([term([])])).toBeNull();
		expect(asciiMatcher([term(["retry"])])).not.toBeNull();
	});

	it("finds the spans and the last word's end that tokenizing finds, on random texts and terms", () => {
		let seed = 7;
		const rand = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed % n;
		};
		const pick = <T>(xs: readonly T[]) => xs[rand(xs.length)] as T;
		const words = [
			"retry",
			"Retry",
			"RETRY",
			"with",
			"With",
			"backoff",
			"retried",
			"retries",
			"handleWebhook",
			"HTTPServer",
			"retryWithBackoff",
			"a",
			"A",
			"9",
			"x9",
			"webhook",
			"WebHook",
			"reTry",
			"getHTTPRetryCount",
			"RetryPolicy",
			"autoRetry",
			"retry2Go",
			"HTTP2Server",
			"XMLHttpRequest",
			"withRetry",
			"ABCDef",
			"handleWebhooks",
		];
		const gaps = [" ", "_", "-", ".", "\n", "(", ")", "::", "  ", "/", ""];
		const vocab = ["retry", "with", "backoff", "webhook", "a", "9", "server", "http", "handle", "count", "get"];
		let compared = 0;
		for (let round = 0; round < 3000; round++) {
			let text = pick(["", " ", "_"]);
			for (let w = rand(12); w >= 0; w--) text += pick(words) + pick(gaps);
			const terms = Array.from({ length: 1 + rand(3) }, () => {
				const tokens = Array.from({ length: 1 + (rand(3) === 0 ? rand(3) : 0) }, () => pick(vocab));
				const prefix = rand(4) === 0;
				const forms = tokens.length === 1 && !prefix && rand(3) === 0 ? [pick(["retried", "retries", "webhooks", "handled"])] : undefined;
				return term(prefix ? [...tokens.slice(0, -1), (tokens.at(-1) as string).slice(0, 1 + rand(3))] : tokens, { prefix, ...(forms ? { forms } : {}) });
			});
			expect(viaRegex(text, terms), JSON.stringify({ text, terms })).toEqual(viaTokens(text, terms));
			compared += viaTokens(text, terms).out.length;
		}
		// The texts hold matches of every kind, not just none.
		expect(compared).toBeGreaterThan(3000);
	});
});
