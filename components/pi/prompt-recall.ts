/**
 * Prompt recall inside pi (a shell's Ctrl+R for pi): this workspace's past user prompts across its sessions, newest
 * first, filtered as you type, the same prompt asked again folded into one row. Enter hands the chosen prompt's
 * exact text (read from its session file) to the host, which puts it in pi's editor. No Pi package here (see
 * explorer-overlay.ts for how the host passes pi-tui's functions and theme).
 */

import { relativeTime } from "../../src/present/text.js";
import type { Hit, SearchRequest, SearchResult } from "../../src/shared/types.js";
import type { ExplorerService } from "../core/explorer-service.js";
import { prefixWorthy } from "../core/filters.js";
import { fitLine, type StyledLine, seg } from "../core/styled.js";
import { oneLine, withClusterWidth } from "../core/text-width.js";
import type { PiTuiKit } from "./explorer-overlay.js";
import { keyOfPi } from "./pi-keys.js";
import { type PiPaint, piLines } from "./pi-paint.js";

/** Prompts listed (after folding). */
const LIMIT = 200;

/** Options of the prompt list. */
export interface PromptRecallOptions {
	service: ExplorerService;
	kit: PiTuiKit;
	paint: PiPaint;
	workspace: string;
	height: () => number;
	/** Enter: the chosen prompt (exact text); the host closes the overlay. */
	choose(text: string): void;
	close(): void;
	requestRender(): void;
	now?: () => number;
}

/** One row: a prompt and how many times it was asked. */
export interface PromptRow {
	hit: Hit;
	text: string;
	times: number;
}

/** Folds prompts asked more than once (same text, spaces aside) into their newest row. */
export function foldPrompts(hits: readonly Hit[]): PromptRow[] {
	const rows = new Map<string, PromptRow>();
	for (const hit of hits) {
		const text = oneLine(hit.snippet).replace(/\s+/g, " ").trim();
		const key = text.toLowerCase();
		const row = rows.get(key);
		if (row) row.times += 1;
		else rows.set(key, { hit, text, times: 1 });
	}
	return [...rows.values()];
}

/** The search behind the list: user prompts under the workspace, newest first, the query's last word a prefix. */
export function promptRequest(query: string, workspace: string): SearchRequest {
	return {
		query: query.trim(),
		prefix: prefixWorthy(query),
		filters: { kinds: ["user.text"], cwds: [workspace], cwdSubtree: true },
		order: "newest",
		limit: LIMIT,
		snippetChars: 400,
	};
}

/** The prompt list over pi's screen. */
export class PromptRecall {
	query = "";
	rows: PromptRow[] = [];
	selected = 0;
	private seq = 0;
	private status = "searching…";
	private closed = false;

	constructor(private readonly o: PromptRecallOptions) {
		this.search();
	}

	private search(): void {
		const seq = ++this.seq;
		const q = this.query;
		Promise.resolve(this.o.service.search(promptRequest(q, this.o.workspace))).then(
			(r: SearchResult) => {
				if (seq !== this.seq || this.closed) return;
				this.rows = foldPrompts(r.hits);
				this.selected = 0;
				this.status = this.rows.length
					? `${this.rows.length} prompt(s) in this workspace`
					: q
						? "no prompt matches"
						: "no prompts indexed for this workspace yet";
				this.o.requestRender();
			},
			(error: unknown) => {
				if (seq !== this.seq || this.closed) return;
				this.status = `search failed: ${error instanceof Error ? error.message : String(error)}`;
				this.o.requestRender();
			},
		);
	}

	/** Exactly `height` lines, none wider than `width` cells (blank ends left for pi-tui to pad). */
	render(width: number): string[] {
		return withClusterWidth(this.o.kit.visibleWidth, () => this.draw(width));
	}

	private draw(width: number): string[] {
		const height = Math.max(4, this.o.height());
		const now = this.o.now?.() ?? Date.now();
		const lines: StyledLine[] = [
			fitLine([seg("prompt recall ", "accent"), seg("this workspace, newest first", "dim")], width, true),
			fitLine([seg("› ", "accent"), seg(this.query), seg(" ", "plain", true)], width, true),
		];
		const room = height - 3;
		const top = Math.max(0, Math.min(this.selected - room + 1, this.rows.length - room));
		for (let i = top; i < Math.min(this.rows.length, top + room); i++) {
			const row = this.rows[i] as PromptRow;
			const sel = i === this.selected;
			const when = relativeTime(row.hit.timestamp, now);
			const times = row.times > 1 ? ` ×${row.times}` : "";
			lines.push(fitLine([seg(sel ? "▸ " : "  ", "accent"), seg(row.text, sel ? "bold" : "plain", sel), seg(`  ${when}${times}`, "dim")], width, true));
		}
		while (lines.length < height - 1) lines.push(fitLine([], width, true));
		lines.push(fitLine([seg(this.status, "dim"), seg("  Enter", "key"), seg(" to the editor  ", "dim"), seg("Esc", "key"), seg(" close", "dim")], width, true));
		return piLines(lines, width, this.o.paint, this.o.kit);
	}

	/** One key from pi: text edits the query (search as you type), arrows choose, Enter takes, Esc closes. */
	handleInput(data: string): void {
		const k = keyOfPi(data, this.o.kit.parseKey);
		if (!k) return;
		if (k.name === "escape" || k.name === "ctrl+c") {
			this.finish(() => this.o.close());
			return;
		}
		if (k.name === "enter") {
			const row = this.rows[this.selected];
			if (!row) return;
			const { sessionId, entryId } = row.hit;
			void Promise.resolve(this.o.service.read({ sessionId, entryId, maxChars: 100_000 })).then(
				(read) => this.finish(() => this.o.choose(read.fragments.map((f) => f.text).join("\n"))),
				() => this.finish(() => this.o.choose(row.text)),
			);
			return;
		}
		if (k.name === "up" || k.name === "down") {
			this.selected = Math.max(0, Math.min(this.rows.length - 1, this.selected + (k.name === "up" ? -1 : 1)));
			this.o.requestRender();
			return;
		}
		if (k.name === "backspace") this.query = [...this.query].slice(0, -1).join("");
		else if (k.name === "ctrl+u") this.query = "";
		else if (Object.keys(k.key).length === 0 && k.input) this.query += k.input;
		else return;
		this.search();
		this.o.requestRender();
	}

	invalidate(): void {}

	dispose(): void {
		this.closed = true;
	}

	private finish(then: () => void): void {
		if (this.closed) return;
		this.closed = true;
		then();
	}
}
