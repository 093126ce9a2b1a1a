/**
 * Full-match answers as a face shows them, for the regression check of issue 28: the JSON result (index freshness
 * left out: it holds the indexing time) and the event_search text, for the recall tests' queries.
 */
import { formatSearchForModel } from "../../src/present/model-text.js";
import type { HistoryService } from "../../src/service/service.js";
import { type Manifest, PROJECT_ROOT } from "./corpus.js";

/** The queries of the recall tests (search.test.ts): every needle quoted and as written, and its plain words. */
export function recallQueries(manifest: Manifest): string[] {
	const words = ["ECONNREFUSED", "Webhook", "backoff", "cargo", "src/App.tsx", "webhook", "x", "カワウソ", "水獭", "🐢"];
	return [...manifest.needles.flatMap((n) => [`"${n.text}"`, n.text]), ...words];
}

/** One query's answer: its JSON (without the freshness) and the model's text (with a fixed freshness line). */
export function fullMatchAnswer(service: HistoryService, query: string): { json: string; text: string } {
	const result = service.search({ query, limit: 10 });
	const { index: _index, ...rest } = result;
	const fixed = { ...result, index: { sessions: 0, events: 0, freshAt: null, pending: 0 } };
	const text = formatSearchForModel(fixed, { query, root: "/home/dev", includesCurrent: false }).text;
	// The corpus lives in the checkout: its folder is not part of the answer's bytes.
	return { json: JSON.stringify(rest).replaceAll(PROJECT_ROOT, "<project>"), text: text.replaceAll(PROJECT_ROOT, "<project>") };
}
