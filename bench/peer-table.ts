/**
 * The peers table (DESIGN §7, issue 16 item 1): ours, the FTS5 trigram peer and rg side by side on one corpus of
 * the same run, one row per thing a user would compare.
 */
import { median } from "./child.js";
import type { ColdResult, QueryResult, RgResult, TrigramResult } from "./results.js";
import { f1, MB, ms, pct, renderGrid, thousands, times } from "./table.js";
import { QUERY_MIX } from "./vocabulary.js";

/** What the peers table needs of one size's measurements. */
export interface PeerInputs {
	label: string;
	corpusBytes: number;
	cold: ColdResult & { maxRssBytes: number };
	query: QueryResult;
	rg: RgResult[];
	trigram: TrigramResult & { maxRssBytes: number };
}

/** The peers table of one size; `peer ÷ ours` > 1 means ours is cheaper or faster on that row. */
export function renderPeerTable(p: PeerInputs): string {
	const t = p.trigram;
	const ours = (p.cold.checkpointedBytes.main + p.cold.checkpointedBytes.wal) / MB;
	const rows: string[][] = [];
	const section = (title: string) => rows.push([title, "", "", "", ""]);
	const rgOf = (i: number) => p.rg[i];
	section(`build and size (${p.label}, ${f1(p.corpusBytes / MB)} MB corpus)`);
	rows.push([
		"  build s (parse + project + insert; ours: synchronous refresh)",
		(p.cold.ms / 1000).toFixed(2),
		(t.buildMs / 1000).toFixed(2),
		"no index",
		times(t.buildMs / p.cold.ms),
	]);
	rows.push(["  peak RSS MB of the building child", f1(p.cold.maxRssBytes / MB), f1(t.buildRssBytes / MB), "–", times(t.buildRssBytes / p.cold.maxRssBytes)]);
	rows.push([
		"  index MB (trigram: of which stored text)",
		f1(ours),
		`${f1(t.bytes / MB)}${t.contentBytes !== null ? ` (${f1(t.contentBytes / MB)})` : ""}`,
		`reads ${f1(p.corpusBytes / MB)}`,
		times(t.bytes / MB / ours),
	]);
	rows.push([
		"  events | fragments indexed",
		`${thousands(p.cold.events)} | ${thousands(p.cold.fragments)}`,
		`${thousands(t.events)} | ${thousands(t.fragments)}`,
		"–",
		"",
	]);
	section("query mix, p50 ms (hits of limit 10); trigram: terms as quoted substrings, bm25 | newest first");
	// A row the peer answers unfiltered (it has no branch state) is marked and never counted as a win of either.
	let comparable = 0;
	let winsRank = 0;
	let winsTime = 0;
	QUERY_MIX.forEach((q, i) => {
		const m = p.query.mix[i];
		const tm = t.mix[i];
		const tt = t.mixByTime[i];
		const g = rgOf(i);
		const unfiltered = tm?.unsupported ?? null;
		if (m && tm && tt && !unfiltered) {
			comparable++;
			if (m.p50 < tm.p50) winsRank++;
			if (m.p50 < tt.p50) winsTime++;
		}
		rows.push([
			`  ${q.label}`,
			m ? `${ms(m.p50)} (${m.hits})` : "–",
			tm && tt ? `${ms(tm.p50)} | ${ms(tt.p50)} (${tm.hits})${unfiltered ? ` [${unfiltered}: not counted]` : ""}` : "–",
			g ? ms(g.p50) : "–",
			m && tm && tt ? `${times(tm.p50 / m.p50)} | ${times(tt.p50 / m.p50)}${unfiltered ? " (unfiltered)" : ""}` : "–",
		]);
	});
	const oursMedian = median(p.query.mix.map((m) => m.p50));
	const peerMedian = median(t.mix.map((m) => m.p50));
	const peerTimeMedian = median(t.mixByTime.map((m) => m.p50));
	const rgMedian = median(p.rg.map((g) => g.p50));
	rows.push([
		"  median p50 of the mix ms",
		ms(oursMedian),
		`${ms(peerMedian)} | ${ms(peerTimeMedian)}`,
		ms(rgMedian),
		`${times(peerMedian / oursMedian)} | ${times(peerTimeMedian / oursMedian)}`,
	]);
	const worst = (xs: Array<{ p95: number }>) => Math.max(...xs.map((x) => x.p95));
	rows.push([
		"  worst p95 of the mix ms",
		ms(worst(p.query.mix)),
		`${ms(worst(t.mix))} | ${ms(worst(t.mixByTime))}`,
		"–",
		`${times(worst(t.mix) / worst(p.query.mix))} | ${times(worst(t.mixByTime) / worst(p.query.mix))}`,
	]);
	rows.push(["  ours faster (p50) on, of the rows both filter alike", "", `${winsRank} of ${comparable} | ${winsTime} of ${comparable}`, "", ""]);
	section("recall on the needles (events holding it, scored in ≤ 40 sessions): found share (+ extra events); top-10 p50 ms");
	for (const n of t.needles) {
		const cell = (s: { recall: number; extra: number; ms: number }, note = "") =>
			`${pct(s.recall)}${s.extra ? ` (+${thousands(s.extra)})` : ""}${note}, ${ms(s.ms)}`;
		rows.push([
			`  ${n.label}: ${thousands(n.sampled)} of ${thousands(n.truth)} events`,
			cell(n.ours),
			cell(n.peer, n.peerHow.startsWith("LIKE") ? " LIKE scan" : ""),
			"–",
			times(n.peer.ms / n.ours.ms),
		]);
	}
	return renderGrid(["peers", "ours", "FTS5 trigram", "rg", "trigram ÷ ours"], rows);
}
