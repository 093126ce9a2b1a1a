/**
 * Issue 28's measurements on a built bench index: what English inflections cost as a query-time expansion through
 * the vocabulary (the method chosen) against what a stemmed shadow of the tokens would add to the index, and what
 * agent-style (partial) queries cost. Run from the checkout after `npm run bench` built the large corpus:
 *   npm run build && node dist/bench/inflections.js <index.sqlite> [runs=15]
 */
import { statSync } from "node:fs";
import Database from "better-sqlite3";
import { openStore } from "../src/index/store.js";
import { inflectionKey } from "../src/query/inflect.js";
import { search } from "../src/query/search.js";
import type { SearchRequest } from "../src/shared/types.js";

const path = process.argv[2];
if (!path) throw new Error("usage: node dist/bench/inflections.js <index.sqlite> [runs]");
const runs = Number(process.argv[3] ?? 15);

/** p50 and p95 of a list of times. */
function quantiles(ms: number[]): { p50: number; p95: number } {
	const s = [...ms].sort((a, b) => a - b);
	const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
	return { p50: at(0.5), p95: at(0.95) };
}

// 1. The shadow: every token of prose whose inflection key differs would be indexed a second time, as its key.
const db = new Database(path, { readonly: true });
db.exec("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, 'fts', 'row')");
let postings = 0;
let shadowPostings = 0;
let terms = 0;
const keys = new Set<string>();
const started = performance.now();
let keyMs = 0;
for (const row of db.prepare("SELECT term, doc, cnt FROM temp.v").iterate() as Iterable<{ term: string; doc: number; cnt: number }>) {
	postings += row.cnt;
	terms++;
	if (!/^[a-z]{3,}$/.test(row.term)) continue;
	const t0 = performance.now();
	const key = inflectionKey(row.term);
	keyMs += performance.now() - t0;
	if (key !== row.term) {
		shadowPostings += row.cnt;
		keys.add(key);
	}
}
const scanMs = performance.now() - started;
db.close();
const perKeyUs = (keyMs * 1000) / terms;
console.log(
	JSON.stringify({
		indexMB: +(statSync(path).size / 1e6).toFixed(1),
		terms,
		postings,
		shadowPostings,
		shadowShare: +(shadowPostings / postings).toFixed(4),
		shadowNewTerms: keys.size,
		keyCallUs: +perKeyUs.toFixed(3),
		shadowKeyCpuS: +((perKeyUs * postings) / 1e6).toFixed(2),
		vocabularyScanS: +(scanMs / 1000).toFixed(1),
	}),
);

// 2. Query cost: inflected words (every word first, then the other forms) and agent-style queries (partial), each
// asked `runs` times on a fresh connection (first run apart) and compared with the same query as written only.
const QUERIES = [
	"fixed",
	"errors",
	"retried",
	"timeouts",
	"migrations failing",
	"parsed tokens",
	"how did we fix the EADDRINUSE port error",
	"where was reconcileLedgerDrift discussed before",
	"handleWebhook timeout root cause and solution",
	"lunar pangolin zebrafish",
	"reconcileLedgerDrif",
];
for (const query of QUERIES) {
	const row: Record<string, unknown> = { query };
	for (const exact of [true, false]) {
		const store = openStore(path, { readonly: true });
		const request: SearchRequest = { query, limit: 10, exact };
		const t = performance.now();
		let result = search(store, request);
		const first = performance.now() - t;
		const times: number[] = [];
		for (let i = 0; i < runs; i++) {
			const t0 = performance.now();
			result = search(store, request);
			times.push(performance.now() - t0);
		}
		store.db.close();
		const q = quantiles(times);
		row[exact ? "asWritten" : "issue28"] = {
			hits: result.hits.length,
			match: result.match ?? "all",
			first: +first.toFixed(1),
			p50: +q.p50.toFixed(1),
			p95: +q.p95.toFixed(1),
		};
	}
	console.log(JSON.stringify(row));
}
