/**
 * Exact reads as screen lines: the event view's document (fragments in content order, omitted parts named where
 * they were, head and tail of large fragments, metadata, source) and the search screen's preview around a match.
 */

import { relativeTime, shortPath } from "../../src/present/text.js";
import type { FragmentWindow, Hit, OmittedPart, ReadResult } from "../../src/shared/types.js";
import { bytes, num } from "../core/numbers.js";
import { findRanges, fitLine, markRanges, type StyledLine, seg, type Tone } from "../core/styled.js";
import { oneLine, sanitizeLine, stringWidth, truncate, wrapLine } from "../core/text-width.js";
import type { FindMark } from "./doc-metrics.js";
import { fragmentLayout } from "./fragment-windows.js";
import type { EventData } from "./loaders.js";

/** One line of the event document; `fragmentId` says which fragment it shows; `gap`: text not loaded yet there. */
export interface DocLine {
	line: StyledLine;
	fragmentId?: string;
	gap?: [number, number];
}

/** The event view's scrollable document. */
export interface EventDoc {
	lines: DocLine[];
	/** First line of each fragment. */
	anchors: Record<string, number>;
	/** Line of the first highlighted match, where the view opens. */
	matchLine: number | null;
	/** Line of the find's current match (null: none, or not loaded). */
	findLine: number | null;
}

/** What the document shows beyond the loaded data: chunks of large fragments, highlights, the find, width and wrapping. */
export interface DocOptions {
	/** Fragment id → windows loaded besides the head and tail (as the view scrolled or found). */
	chunks: Record<string, FragmentWindow[]>;
	find: FindMark | null;
	highlights: readonly string[];
	focusFragment: string | null;
	width: number;
	wrap: boolean;
}

/** The content-block index a fragment id or an omitted path points into (`tool.call:2`, `message.content.2.thinking`). */
export function blockIndex(idOrPath: string): number | null {
	const frag = /:(\d+)$/.exec(idOrPath);
	if (frag) return Number(frag[1]);
	const path = /(?:^|\.)content\.(\d+)(?:\.|$)/.exec(idOrPath);
	return path ? Number(path[1]) : null;
}

/** A person-readable description of an omitted part: what it is, its size and why it is not shown. */
export function omittedText(o: OmittedPart): string {
	const size = o.bytes !== undefined ? bytes(o.bytes) : o.chars !== undefined ? `${num(o.chars)} chars` : "";
	if (o.reason === "image") return `image ${o.mimeType ?? ""}${size ? ` · ${size}` : ""} · not shown`.replace(/ {2,}/g, " ");
	if (o.reason.startsWith("thinking"))
		return `thinking hidden${size ? ` · ${size}` : ""} · ${o.reason.replace(/^thinking\s*/, "").replace(/^\((.*)\)$/, "$1") || "private reasoning"}`;
	if (o.reason === "signature") return `signature${size ? ` · ${size}` : ""} · not shown`;
	return `${o.reason}${size ? ` · ${size}` : ""}`;
}

function isTruncationNote(o: OmittedPart): boolean {
	return o.reason.startsWith("truncated payload");
}

/** Text lines of a fragment window, sanitized, highlighted and wrapped (or cut) to `width`; at most `limit` lines. */
export function textLines(
	text: string,
	highlights: readonly string[],
	width: number,
	wrap: boolean,
	tone: Tone = "plain",
	limit = Number.POSITIVE_INFINITY,
): StyledLine[] {
	const out: StyledLine[] = [];
	for (const raw of text.split(/\r?\n/)) {
		if (out.length >= limit) break;
		const clean = sanitizeLine(raw.replace(/\t/g, "    "));
		const ranges = findRanges(clean, highlights);
		if (!wrap) {
			out.push(
				markRanges(
					truncate(clean, width),
					ranges.filter(([a]) => a < clean.length),
					tone,
				),
			);
			continue;
		}
		let at = 0;
		for (const piece of wrapLine(clean, width, limit - out.length)) {
			const local = ranges.map(([a, b]) => [a - at, b - at] as [number, number]).filter(([a, b]) => b > 0 && a < piece.length);
			out.push(
				markRanges(
					piece,
					local.map(([a, b]) => [Math.max(0, a), Math.min(piece.length, b)]),
					tone,
				),
			);
			at += piece.length;
		}
	}
	return out;
}

function rule(label: string, width: number, tone: Tone = "accent"): StyledLine {
	const text = `── ${label} `;
	const w = stringWidth(text);
	return w >= width ? [seg(truncate(text, width), tone)] : [seg(text, tone), seg("─".repeat(width - w), "dim")];
}

/** The line of the document the character `at` of `text` starts on, `first` being the line `text` starts on. */
function lineOfChar(text: string, at: number, width: number, wrap: boolean, first: number): number {
	const rawStart = text.lastIndexOf("\n", at - 1) + 1;
	const before = rawStart > 0 ? textLines(text.slice(0, rawStart - 1), [], width, wrap).length : 0;
	return first + before + (wrap ? Math.floor((at - rawStart) / Math.max(1, width)) : 0);
}

/** Flattens event metadata into `path: value` pairs (nested objects joined with dots, arrays as short JSON). */
export function flattenMetadata(value: Record<string, unknown>, prefix = "", out: Array<[string, string]> = []): Array<[string, string]> {
	for (const [key, v] of Object.entries(value)) {
		const path = prefix ? `${prefix}.${key}` : key;
		if (v !== null && typeof v === "object" && !Array.isArray(v) && prefix.split(".").length < 4) flattenMetadata(v as Record<string, unknown>, path, out);
		else out.push([path, typeof v === "string" ? v : (JSON.stringify(v) ?? String(v))]);
	}
	return out;
}

/** Builds the event view's document. */
export function buildEventDoc(data: EventData, options: DocOptions): EventDoc {
	const { read } = data;
	const width = Math.max(10, options.width);
	const lines: DocLine[] = [];
	const anchors: Record<string, number> = {};
	let matchLine: number | null = null;
	const push = (raw: StyledLine, fragmentId?: string) => {
		const line = fitLine(raw, width);
		lines.push(fragmentId ? { line, fragmentId } : { line });
	};
	for (const n of read.notes) push([seg(`note: ${n}`, "warn")]);

	// Fragments and the content blocks that are not shown, in the order they have in the entry.
	type Item = { at: number; order: number; fragment?: FragmentWindow; omitted?: OmittedPart };
	const items: Item[] = [];
	read.fragments.forEach((f, i) => {
		items.push({ at: blockIndex(f.id) ?? 0, order: i, fragment: f });
	});
	const trailing: OmittedPart[] = [];
	read.omitted.forEach((o, i) => {
		if (isTruncationNote(o)) return;
		const at = blockIndex(o.path);
		if (at === null || o.reason === "signature") trailing.push(o);
		else items.push({ at, order: 1000 + i, omitted: o });
	});
	items.sort((a, b) => a.at - b.at || a.order - b.order);
	if (items.length === 0) push([seg("(this event has no text content: see its metadata below)", "dim")]);

	const highlights = options.find ? [...options.highlights, options.find.text.toLowerCase()] : options.highlights;
	let findLine: number | null = null;
	for (const item of items) {
		if (item.omitted) {
			push([seg("⊘ ", "dim"), seg(omittedText(item.omitted), "dim"), seg(`  (${item.omitted.path})`, "dim")]);
			continue;
		}
		const f = item.fragment as FragmentWindow;
		if (lines.length > 0) push([]);
		anchors[f.id] = lines.length;
		const tail = data.tails[f.id];
		const windows = [f, ...(options.chunks[f.id] ?? []), ...(tail ? [tail] : [])];
		const layout = fragmentLayout(windows, f.totalChars);
		const loaded = layout.runs.reduce((n, r) => n + r.to - r.from, 0);
		let label = `${f.id} · ${num(f.totalChars)} chars`;
		if (layout.gaps.length > 0) label += ` · ${num(loaded)} loaded · the rest loads as you scroll`;
		push(rule(label, width), f.id);
		const gaps = [...layout.gaps];
		for (const run of layout.runs) {
			const gap = gaps[0];
			if (gap && gap[1] <= run.from) {
				gaps.shift();
				lines.push({
					line: fitLine([seg(`  ⋯ loading chars ${num(gap[0])}–${num(gap[1])} (${num(gap[1] - gap[0])}) ⋯`, "dim")], width),
					fragmentId: f.id,
					gap,
				});
			}
			const first = lines.length;
			for (const l of textLines(run.text, highlights, width, options.wrap)) {
				if (matchLine === null && (options.focusFragment === null || options.focusFragment === f.id) && l.some((x) => x.tone === "match"))
					matchLine = lines.length;
				push(l, f.id);
			}
			const at = options.find?.fid === f.id ? options.find.at : null;
			if (at !== null && at !== undefined && at >= run.from && at < run.to)
				findLine = Math.min(lines.length - 1, lineOfChar(run.text, at - run.from, width, options.wrap, first));
		}
		for (const gap of gaps)
			lines.push({ line: fitLine([seg(`  ⋯ loading chars ${num(gap[0])}–${num(gap[1])} (${num(gap[1] - gap[0])}) ⋯`, "dim")], width), fragmentId: f.id, gap });
	}

	if (trailing.length > 0) {
		push([]);
		push(rule("not shown", width, "dim"));
		for (const o of trailing) push([seg(`⊘ ${o.path}: `, "dim"), seg(omittedText(o), "dim")]);
	}

	push([]);
	push(rule("metadata", width, "dim"));
	const c = read.classification;
	const summarized = c.summarizedBy
		? ` by ${c.summarizedBy.entryId} (${c.summarizedBy.provenance})`
		: c.contextEdit
			? ` — ${c.contextEdit.state === "omitted" ? "the model never saw it" : "the model saw the replacement"} (context edit ${c.contextEdit.by})`
			: "";
	push([
		seg("branch ", "dim"),
		seg(c.branchState, c.branchState === "alternate" ? "warn" : "plain"),
		seg(" · selection ", "dim"),
		seg(`${c.selectionState}${summarized}`),
		seg(" · ", "dim"),
		seg(c.contextRole),
	]);
	push([
		seg("materialized leaf ", "dim"),
		seg(c.materializedLeafId ?? "unknown"),
		seg(c.onMaterializedLeafPath ? " · this event is on its path" : " · this event is off its path", "dim"),
	]);
	for (const [k, v] of flattenMetadata(read.event)) {
		// Identity is in the header; `id` repeats entryId.
		if (k === "sessionId" || k === "entryId") continue;
		push([seg(`${k}: `, "dim"), seg(truncate(oneLine(v), Math.max(10, width - stringWidth(k) - 2)))]);
	}
	push([
		seg("source ", "dim"),
		seg(`${shortPath(read.source.file, 2)}:${read.source.line}`),
		seg(` · byte ${num(read.source.byteOffset)} · ${bytes(read.source.byteLength)}`, "dim"),
	]);
	push([seg("session ", "dim"), seg(read.session.id), seg(` · ${read.session.name ?? shortPath(read.session.cwd, 3)}`, "dim")]);
	return { lines, anchors, matchLine, findLine };
}

/** The match texts of a hit's snippet (what the preview and the event view highlight). */
export function hitHighlights(hit: Pick<Hit, "snippet" | "marks">): string[] {
	const out = new Set<string>();
	for (const [a, b] of hit.marks) {
		const t = hit.snippet.slice(a, b).trim();
		if (t) out.add(t.toLowerCase());
	}
	return [...out];
}

/** Where in `text` the first highlight occurs (0 when none does). */
export function locateMatch(text: string, highlights: readonly string[]): number {
	let best = -1;
	const hay = text.toLowerCase();
	for (const h of highlights) {
		const i = hay.indexOf(h.toLowerCase());
		if (i !== -1 && (best === -1 || i < best)) best = i;
	}
	return Math.max(0, best);
}

/** The preview's text: `height` lines of the exact text around the match, and the character they start at (null without a fragment). */
export function previewBody(read: ReadResult, highlights: readonly string[], width: number, height: number): { lines: StyledLine[]; at: number | null } {
	const f = read.fragments[0];
	if (!f) {
		const lines = flattenMetadata(read.event)
			.filter(([k]) => k !== "sessionId" && k !== "entryId")
			.slice(0, height)
			.map(([k, v]) => [seg(`${k}: `, "dim"), seg(truncate(oneLine(v), Math.max(4, width - stringWidth(k) - 2)))]);
		return { lines, at: null };
	}
	const at = locateMatch(f.text, highlights);
	// Start a line or two before the match; inside one very long line, start shortly before the match instead.
	let start = f.text.lastIndexOf("\n", at - 1) + 1;
	const prevLine = start > 0 ? f.text.lastIndexOf("\n", start - 2) + 1 : start;
	if (at - prevLine < width * 2) start = prevLine;
	const budget = Math.max(width, Math.floor((height / 3) * width));
	let prefix = "";
	if (at - start > budget) {
		start = Math.max(start, at - budget);
		prefix = "…";
	}
	const text = prefix + f.text.slice(start, start + Math.max(2000, height * width * 2));
	return { lines: textLines(text, highlights, width, true, "plain", height), at: f.range[0] + start };
}

/** The preview's title line: the fragment and where its text starts, or the event type without a fragment; the age. */
export function previewTitle(read: ReadResult, at: number | null, now: number): StyledLine {
	const f = read.fragments[0];
	const e = read.event;
	const when = typeof e.timestamp === "string" ? relativeTime(e.timestamp, now) : "";
	if (!f || at === null) return [seg("preview ", "dim"), seg(`${e.type} · ${when}`, "accent")];
	const where = f.totalChars > 0 ? ` · char ${num(at)} of ${num(f.totalChars)}` : "";
	return [seg("preview ", "dim"), seg(f.id, "accent"), seg(`${where}${when ? ` · ${when}` : ""}`, "dim")];
}

/** The preview pane: a title line and `height` lines of the exact text around the match. */
export function buildPreview(
	read: ReadResult,
	highlights: readonly string[],
	width: number,
	height: number,
	now: number,
): { title: StyledLine; lines: StyledLine[] } {
	const body = previewBody(read, highlights, width, height);
	return { title: previewTitle(read, body.at, now), lines: body.lines };
}
