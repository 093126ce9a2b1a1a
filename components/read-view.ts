/**
 * Exact reads as screen lines: the event view's document (fragments in content order, omitted parts named where
 * they were, head and tail of large fragments, metadata, source) and the search screen's preview around a match.
 */

import { relativeTime, shortPath } from "../src/present/text.js";
import type { FragmentWindow, Hit, OmittedPart, ReadResult } from "../src/shared/types.js";
import type { EventData } from "./loaders.js";
import { PAGE_CHARS, pageCut, tailSkip } from "./loaders.js";
import { findRanges, fitLine, markRanges, type StyledLine, seg, type Tone } from "./styled.js";
import { oneLine, sanitizeLine, stringWidth, truncate, wrapLine } from "./text-width.js";

/** One line of the event document; `fragmentId` says which fragment it shows (paging acts on it). */
export interface DocLine {
	line: StyledLine;
	fragmentId?: string;
}

/** The event view's scrollable document. */
export interface EventDoc {
	lines: DocLine[];
	/** First line of each fragment. */
	anchors: Record<string, number>;
	/** Line of the first highlighted match, where the view opens. */
	matchLine: number | null;
}

/** What the document shows beyond the loaded data: pages of large fragments, highlights, width and wrapping. */
export interface DocOptions {
	pages: Record<string, number>;
	pageWindows: Record<string, FragmentWindow>;
	highlights: readonly string[];
	focusFragment: string | null;
	width: number;
	wrap: boolean;
}

/** 12,345 */
export function num(n: number): string {
	return n.toLocaleString("en-US");
}

/** 1.2 KB, 3.4 MB */
export function bytes(n: number): string {
	if (n < 1024) return `${n} B`;
	if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
	return `${(n / 1024 / 1024).toFixed(1)} MB`;
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

function gapLine(text: string, fragmentId: string): DocLine {
	return { line: [seg(`  ⋯ ${text} ⋯`, "dim")], fragmentId };
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

	for (const item of items) {
		if (item.omitted) {
			push([seg("⊘ ", "dim"), seg(omittedText(item.omitted), "dim"), seg(`  (${item.omitted.path})`, "dim")]);
			continue;
		}
		const f = item.fragment as FragmentWindow;
		if (lines.length > 0) push([]);
		anchors[f.id] = lines.length;
		const paged = options.pages[f.id];
		const tail = data.tails[f.id];
		let label = `${f.id} · ${num(f.totalChars)} chars`;
		if (paged !== undefined) {
			const end = Math.min(f.totalChars, paged + PAGE_CHARS);
			label += ` · page ${num(paged)}–${num(end)} · n/p pages`;
		} else if (f.range[1] < f.totalChars) {
			label += tail ? ` · head and tail shown · n pages through` : ` · first ${num(f.range[1])} shown · n pages through`;
		}
		push(rule(label, width), f.id);
		const body = (text: string) => {
			for (const l of textLines(text, options.highlights, width, options.wrap)) {
				if (matchLine === null && (options.focusFragment === null || options.focusFragment === f.id) && l.some((s) => s.tone === "match"))
					matchLine = lines.length;
				push(l, f.id);
			}
		};
		if (paged !== undefined) {
			const window = options.pageWindows[f.id];
			if (paged > 0) push(gapLine(`chars 0–${num(paged)} above · p previous page`, f.id).line, f.id);
			// A page ends at a line or word (pageCut); the next one starts there.
			const shown = window ? window.text.slice(0, pageCut(window.text, window.range[1] >= f.totalChars)) : "";
			if (window) body(shown);
			else push([seg("  loading…", "dim")], f.id);
			const end = window
				? shown.length === window.text.length
					? window.range[1]
					: window.range[0] + shown.length
				: Math.min(f.totalChars, paged + PAGE_CHARS);
			if (end < f.totalChars) push(gapLine(`chars ${num(end)}–${num(f.totalChars)} below · n next page`, f.id).line, f.id);
			continue;
		}
		// The head ends and the tail starts at a line or word: the cut-off parts belong to the gap between them.
		const headShown = f.range[1] < f.totalChars ? f.text.slice(0, pageCut(f.text, false)) : f.text;
		body(headShown);
		if (f.range[1] < f.totalChars) {
			const from = f.range[0] + headShown.length;
			const skip = tail ? tailSkip(tail.text) : 0;
			const to = tail ? tail.range[0] + skip : f.totalChars;
			if (to > from) push(gapLine(`${num(to - from)} chars not shown (${num(from)}–${num(to)}) · n next page`, f.id).line, f.id);
			if (tail) body(tail.text.slice(skip));
		}
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
	return { lines, anchors, matchLine };
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
