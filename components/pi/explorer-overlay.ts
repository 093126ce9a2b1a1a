/**
 * The explorer as a pi-tui component (`render(width)` → lines, `handleInput(data)`), with no Pi package imported
 * here: the host (src/extension/in-pi.ts) passes pi-tui's width and key functions and pi's theme. State and loads
 * are the ExplorerDriver's (the same reducer and loads as pi-history); the keys that mean something only inside pi
 * are taken first: Enter goes to the event in pi, Alt+O opens its exact text (pi-history's event view, whose keys
 * work as there: `t` the tree, Esc back), Alt+Q pastes a quote, Alt+R pastes the ref, Esc on the query closes.
 */
import type { EventRef } from "../../src/shared/types.js";
import type { Message } from "../core/actions.js";
import type { ExplorerService } from "../core/explorer-service.js";
import type { Scope } from "../core/filters.js";
import type { Tone } from "../core/styled.js";
import { stringWidth, withClusterWidth } from "../core/text-width.js";
import { modeOf, selectedHit, topLoc } from "../root/state.js";
import { treeCursorRef } from "../root/tree-route.js";
import { ExplorerDriver } from "./explorer-driver.js";
import { explorerLines } from "./explorer-lines.js";
import { keyOfPi, type ParseKey } from "./pi-keys.js";
import { type PiPaint, type PiWidths, piLines } from "./pi-paint.js";

/** What the overlay says when searches share pi's thread (the built query worker is missing or older than the sources). */
export const NO_WORKER_NOTE = "searching on pi's thread: no current build of the query worker (npm run build in the package) — typing may lag";

/** pi-tui's functions the component measures and reads keys with. */
export interface PiTuiKit extends PiWidths {
	parseKey: ParseKey;
}

/** What the host does for the keys that act on pi. */
export interface ExplorerHost {
	/** Enter: go to the event in pi (the host closes the overlay). */
	land(ref: EventRef): void;
	/** Alt+Q / Alt+R: put a quote of the event, or its ref, into pi's editor; the answer is the status line. */
	paste(ref: EventRef, what: "quote" | "ref"): Promise<string>;
	close(): void;
	requestRender(): void;
}

/** Options of the overlay. */
export interface ExplorerOverlayOptions {
	service: ExplorerService;
	kit: PiTuiKit;
	paint: PiPaint;
	host: ExplorerHost;
	/** This workspace's directory: the first scope. */
	workspace: string | null;
	scope?: Scope;
	query?: string;
	/**
	 * False when the service answers on pi's own thread (the query worker could not start): every question then runs
	 * in its own turn of pi's loop, latest search winning, no count of every hit, and the status line says so (dim).
	 */
	threaded?: boolean;
	/** Lines the overlay may take (pi's terminal rows minus a margin). */
	height: () => number;
	now?: () => number;
}

/**
 * Lines pi-tui measures with its emoji pattern (an emoji of two code units, characters of the emoji blocks, a wide
 * one), each a string of its own so that pi-tui's width cache does not answer it.
 */
const EMOJI_WIDTHS = ["🧾 内 ✅ ✗ a", "🧾 内 ✅ ✗ b"];
/** Rows like a results frame's (non-ASCII chrome, so pi-tui segments them), measured once the overlay has listed events. */
const WARM_ROWS = 120;
/** Rows measured per turn of pi's loop: a turn stays a few milliseconds even before V8 has compiled the code. */
const WARM_ROWS_PER_TURN = 5;
/** pi-tui processes whose emoji pattern, and whose grapheme loop, was run (or is being run) by an overlay. */
const warmed = new WeakSet<PiTuiKit["visibleWidth"]>();
const rowsWarmed = new WeakSet<PiTuiKit["visibleWidth"]>();

/**
 * A distinct row of a results frame's shape, so that pi-tui's width cache does not answer it, holding what session
 * text often does: CJK, an emoji sequence, letters outside Latin.
 */
function warmRow(i: number): string {
	return `▌ ${i} · 2h ago │ handleWebhook retried… ${"the ledger reconciled ".repeat(4)}│ 内存 ${i} ⚠️ λόγος 👍🏽`;
}

/** Measures each batch of lines in a turn of pi's loop of its own, in order. */
function measureInTurns(turns: readonly (readonly string[])[], measure: (line: string) => void): void {
	const next = (i: number) => {
		const lines = turns[i];
		if (lines === undefined) return;
		setTimeout(() => {
			for (const line of lines) measure(line);
			next(i + 1);
		}, 0).unref?.();
	};
	next(0);
}

/**
 * Runs pi-tui's emoji pattern while the overlay waits for its first answer. V8 compiles it when it first runs (the
 * overlay's first frame: `❯` is in the blocks pi-tui checks) and again, to machine code, when it runs next: tens of
 * milliseconds that otherwise fell on the first results frame showing an emoji or ✗, a frame a person types into
 * (docs/performance.md, the rows "inside pi").
 */
function warmEmoji(kit: PiTuiKit): void {
	if (warmed.has(kit.visibleWidth)) return;
	warmed.add(kit.visibleWidth);
	measureInTurns(
		EMOJI_WIDTHS.map((line) => [line]),
		(line) => kit.visibleWidth(line),
	);
}

/**
 * Runs pi-tui's grapheme loop, which measures every non-ASCII line and runs several times slower until V8 has
 * optimized it, and our own width code, over rows of a results frame's shape, a few per turn, once the overlay has
 * listed events. A fresh pi's own screen is ASCII or cached lines, so otherwise the first frame of search results, a
 * key's frame, pays for it. Started after the list, not before, so that it does not delay the list.
 */
function warmRows(kit: PiTuiKit): void {
	if (rowsWarmed.has(kit.visibleWidth)) return;
	rowsWarmed.add(kit.visibleWidth);
	measureInTurns(
		Array.from({ length: Math.ceil(WARM_ROWS / WARM_ROWS_PER_TURN) }, (_, t) =>
			Array.from({ length: WARM_ROWS_PER_TURN }, (_, k) => warmRow(t * WARM_ROWS_PER_TURN + k)),
		),
		(line) => {
			kit.visibleWidth(line);
			withClusterWidth(kit.visibleWidth, () => stringWidth(line));
		},
	);
}

/** The explorer over pi's screen. */
export class ExplorerOverlay {
	readonly driver: ExplorerDriver;
	private queryStart = 0;
	private closed = false;
	/** The host's own status line (a paste's outcome), until the next key. */
	private note: Message | null = null;

	constructor(private readonly o: ExplorerOverlayOptions) {
		this.driver = new ExplorerDriver(
			o.service,
			{
				size: { columns: 80, rows: o.height() + 1 },
				workspace: o.workspace,
				...(o.scope ? { scope: o.scope } : o.workspace ? { scope: "workspace" as const } : {}),
				...(o.query ? { query: o.query } : {}),
			},
			() => {
				if (!this.closed) o.host.requestRender();
			},
			{ count: o.threaded !== false },
		);
		warmEmoji(o.kit);
	}

	/** The lines for `width` cells: none wider (pi-tui measured), blank ends left for pi-tui to pad. */
	render(width: number): string[] {
		return withClusterWidth(this.o.kit.visibleWidth, () => this.draw(width));
	}

	private draw(width: number): string[] {
		const height = Math.max(6, this.o.height());
		const s = this.driver.state;
		if (s.size.columns !== width || s.size.rows !== height + 1) this.driver.dispatch({ type: "resize", size: { columns: width, rows: height + 1 } });
		const o = this.o;
		const now = this.o.now?.() ?? Math.floor(Date.now() / 1000) * 1000;
		const s0 = this.driver.state;
		if (s0.hits.results.status === "ready") warmRows(o.kit);
		const out = explorerLines(
			this.note ? { ...s0, message: this.note } : s0,
			width,
			height,
			now,
			this.queryStart,
			o.threaded === false ? NO_WORKER_NOTE : null,
		);
		this.queryStart = out.queryStart;
		return piLines(out.lines, width, this.o.paint, this.o.kit);
	}

	/** One key from pi. */
	handleInput(data: string): void {
		const k = keyOfPi(data, this.o.kit.parseKey);
		if (!k) return;
		this.note = null;
		const s = this.driver.state;
		const mode = modeOf(s);
		const onSearch = mode === "query" || mode === "list";
		// The event in view: the tree's row, the event view's event, or the selected hit.
		const current = () => (mode === "tree" ? treeCursorRef(s) : mode === "event" ? (topLoc(s)?.ref ?? null) : selectedHit(s));
		if (k.name === "alt+o" && onSearch) {
			// Enter is pi's landing here: the exact text opens on its own key.
			this.driver.dispatch({ type: "open" });
			return;
		}
		if (k.name === "enter" && (onSearch || mode === "tree" || mode === "event")) {
			const ref = current();
			if (!ref) {
				this.say(s.hits.results.status === "loading" ? "still searching…" : "no hit to go to", "warn");
				return;
			}
			this.finish();
			this.o.host.land({ sessionId: ref.sessionId, entryId: ref.entryId });
			return;
		}
		if ((k.name === "alt+q" || k.name === "alt+r") && (onSearch || mode === "tree" || mode === "event")) {
			const ref = current();
			if (!ref) {
				this.say("nothing selected to paste", "warn");
				return;
			}
			void this.o.host.paste({ sessionId: ref.sessionId, entryId: ref.entryId }, k.name === "alt+q" ? "quote" : "ref").then(
				(text) => this.say(text, "info"),
				(error: unknown) => this.say(`paste failed: ${error instanceof Error ? error.message : String(error)}`, "error"),
			);
			return;
		}
		if ((k.name === "escape" && mode === "query") || k.name === "ctrl+c") {
			this.finish();
			this.o.host.close();
			return;
		}
		this.driver.key(k.input, k.key, k.paste);
		if (this.driver.state.exit !== null) {
			this.finish();
			this.o.host.close();
		}
	}

	/** Nothing cached between renders: the next render draws from the state. */
	invalidate(): void {}

	/** Stops the loads (pi calls it when the overlay goes away). */
	dispose(): void {
		this.finish();
	}

	private say(text: string, tone: Message["tone"]): void {
		this.note = { text, tone };
		if (!this.closed) this.o.host.requestRender();
	}

	private finish(): void {
		this.closed = true;
		this.driver.close();
	}
}

export type { PiPaint, Tone };
