/** The index of one pi process: opened lazily, refreshed before each tool call and in the background, closed at shutdown. */
import { isAbsolute, resolve } from "node:path";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { MAX_FOLDERS } from "../service/freshness-watch.js";
import { type HistoryService, isBusyError, workspaceRoot } from "../service/service.js";
import { grouped } from "../shared/numbers.js";
import type { Caller, RefreshSummary } from "../shared/types.js";
import { invokingEntry } from "./call-scope.js";

/** The parts of pi's ExtensionContext the tools read. */
export type CallerContext = Pick<ExtensionContext, "cwd" | "sessionManager">;

/** What the refresh before a call did: ran (with the summary) or did not (busy, failed), and the files left. */
export type CallRefresh = { ran: true; summary: RefreshSummary } | { ran: false; reason: string; pending: number };

/** Everything a tool call needs: the open core, who calls, and what refreshing it did. */
export interface CallState {
	service: HistoryService;
	caller: Caller;
	/** event_search's notes about the refresh (busy, failed, failed earlier in the background). */
	notes: string[];
	pending: number;
	/** For session_search's notes, which say what indexing did or why it did not run. */
	refresh: CallRefresh;
}

const BUSY = "the index is busy (another process is writing it)";

/**
 * How a refresh inside pi is cut: write transactions of at most `ms`, `bytes` or `entries` (one slice of a big file:
 * files are read `bytes` or `entries` at a time, whichever comes first), with a turn of pi's event loop after each,
 * so no stretch of indexing holds pi for long, even inside a big session file (issue 32 item 9: ≤ 50 ms of CPU a
 * turn; a 256 KiB slice of about a thousand entries took 70–90).
 */
export const REFRESH_SLICE = { ms: 40, bytes: 64 * 1024, entries: 128 } as const;

/**
 * Kept tree layouts updated inside pi, one unit per turn (pi's loop waits for it): a whole layout costs in
 * proportion to the session, more than a turn even at the smallest kept size on a loaded machine, so here only
 * updates from the tail that rewrite at most two chunks are made; the rest is left to the explorer's indexer and
 * `pi-history index`.
 */
export const LAYOUT_SLICE = { maxWholeEntries: 0, maxTail: 8192 } as const;

/**
 * The caller's session file as pi opens it: pi joins a relative `sessionDir` (settings, project settings or
 * PI_CODING_AGENT_SESSION_DIR) onto the file name and leaves it relative, so it names a file under pi's own working
 * directory; the index knows files by absolute path (I17).
 */
export function sessionFileOf(sm: Pick<ExtensionContext["sessionManager"], "getSessionFile">): string | undefined {
	const file = sm.getSessionFile();
	if (!file) return undefined;
	return isAbsolute(file) ? file : resolve(process.cwd(), file);
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The index of this pi process: opened lazily, refreshed before each call and in the background, closed at shutdown. */
export class IndexHandle {
	private service: HistoryService | null = null;
	private timer: ReturnType<typeof setTimeout> | null = null;
	private readonly priority = new Set<string>();
	private cwd = process.cwd();
	private backgroundError: string | null = null;
	/** The refresh running now (one at a time: a call's waits for the background one, which it stops early). */
	private running: Promise<unknown> | null = null;
	private stopBackground = false;

	constructor(
		private readonly openService: (cwd: string) => HistoryService,
		private readonly budgets: { call: number; background: number; delay: number },
		private readonly log: (message: string) => void,
	) {}

	private open(cwd: string): HistoryService {
		if (this.service) return this.service;
		const service = this.openService(cwd);
		// pi lives long: a watch of the session folders spares each call's refresh a stat of every session file.
		if (service.watchFolders() !== "watch")
			this.log(`session folders not watched (a network file system, over ${grouped(MAX_FOLDERS)} folders, or none yet): each refresh stats the session files`);
		this.service = service;
		return service;
	}

	/** Opens the index, retrying briefly while another process creates it. */
	private async openForCall(cwd: string): Promise<HistoryService> {
		for (let attempt = 1; ; attempt++) {
			try {
				return this.open(cwd);
			} catch (error) {
				if (attempt >= 3 || !isBusyError(error)) throw error;
				await new Promise((r) => setTimeout(r, 100 * attempt));
			}
		}
	}

	/** Runs one refresh at a time on the handle's connection. */
	private async exclusive<T>(run: () => Promise<T>): Promise<T> {
		while (this.running) await this.running.catch(() => undefined);
		const current = run();
		this.running = current;
		try {
			return await current;
		} finally {
			if (this.running === current) this.running = null;
		}
	}

	/** A sliced refresh (REFRESH_SLICE) within `budgetMs`, the given files first. */
	private refreshSliced(service: HistoryService, budgetMs: number, priority: string[], shouldStop?: () => boolean): Promise<RefreshSummary> {
		const slice = { batchMs: REFRESH_SLICE.ms, batchBytes: REFRESH_SLICE.bytes, sliceBytes: REFRESH_SLICE.bytes, sliceEntries: REFRESH_SLICE.entries };
		return service.refreshSliced({ budgetMs, priority, ...slice, ...(shouldStop ? { shouldStop } : {}) });
	}

	/** Refreshes within the call budget (own session first) and names the caller; never fails on a busy index. */
	async forCall(ctx: CallerContext, toolCallId?: string): Promise<CallState> {
		this.cwd = ctx.cwd;
		const service = await this.openForCall(ctx.cwd);
		const sm = ctx.sessionManager;
		const file = sessionFileOf(sm);
		const notes: string[] = [];
		if (this.backgroundError) {
			notes.push(`background indexing failed earlier: ${this.backgroundError}`);
			this.backgroundError = null;
		}
		let pending = service.pending;
		let refresh: CallRefresh;
		try {
			// A background refresh under way stops at its next slice; the call's own refresh goes next.
			this.stopBackground = true;
			const summary = await this.exclusive(() => this.refreshSliced(service, this.budgets.call, file ? [file] : []));
			pending = summary.pending;
			refresh = summary.busy ? { ran: false, reason: BUSY, pending } : { ran: true, summary };
			if (summary.busy) notes.push("index busy: another process (the history TUI or another pi) is writing it; answered from what is already indexed");
			if (summary.pending > 0 && !summary.busy) this.schedule(undefined, this.budgets.delay);
		} catch (error) {
			if (!isBusyError(error)) this.log(`refresh failed: ${messageOf(error)}`);
			refresh = { ran: false, reason: isBusyError(error) ? BUSY : `refreshing failed (${messageOf(error)})`, pending };
			notes.push(
				isBusyError(error)
					? "index busy: another process is writing it; answered from what is already indexed"
					: `the index could not be refreshed (${messageOf(error)}); answered from what is already indexed`,
			);
		}
		const currentSessionId = sm.getSessionId() || sm.getHeader()?.id || undefined;
		const cutoffEntryId = invokingEntry(sm, toolCallId) ?? sm.getLeafId() ?? undefined;
		const caller: Caller = {
			root: workspaceRoot(ctx.cwd, service.config.workspaceRoot),
			...(currentSessionId ? { currentSessionId } : {}),
			...(file ? { currentSessionFile: file } : {}),
			...(cutoffEntryId ? { cutoffEntryId } : {}),
		};
		return { service, caller, notes, pending, refresh };
	}

	/** Schedules a background refresh (the given session file first) without delaying pi. */
	schedule(ctx?: CallerContext, delay = this.budgets.delay): void {
		if (ctx) {
			this.cwd = ctx.cwd;
			const file = sessionFileOf(ctx.sessionManager);
			if (file) this.priority.add(file);
		}
		if (this.timer) return;
		this.timer = setTimeout(() => void this.runBackground(), delay);
		// Never keep pi alive for indexing: whatever is left is picked up by the next refresh.
		this.timer.unref?.();
	}

	// better-sqlite3 is synchronous: short budgeted chunks, sliced inside, with pauses keep pi's event loop responsive.
	private async runBackground(): Promise<void> {
		this.timer = null;
		try {
			const service = this.open(this.cwd);
			const summary = await this.exclusive(() => {
				this.stopBackground = false;
				return this.refreshSliced(service, this.budgets.background, [...this.priority], () => this.stopBackground);
			});
			if (!summary.busy) this.priority.clear();
			if (summary.pending > 0 && !summary.busy) this.schedule(undefined, 25);
			// Indexed up to date: big sessions' tree layouts follow, a bounded unit per turn.
			else if (!summary.busy && !this.stopBackground)
				await this.exclusive(() => service.keepTreeLayoutsSliced({ ...LAYOUT_SLICE, shouldStop: () => this.stopBackground }));
		} catch (error) {
			if (isBusyError(error)) return;
			this.backgroundError = messageOf(error);
			this.log(`background refresh failed: ${this.backgroundError}`);
		}
	}

	/** Resolves once no refresh runs on the handle (tests, and shutdown). */
	async idle(): Promise<void> {
		while (this.running) await this.running.catch(() => undefined);
	}

	/** Stops background work, indexes the ending session once more if the process lives on, and closes the index. */
	shutdown(ctx: CallerContext, budgetMs: number): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		const service = this.service;
		this.service = null;
		if (!service) return;
		const file = sessionFileOf(ctx.sessionManager);
		// A background refresh under way stops at its next slice; the final one runs after it, on the same connection.
		this.stopBackground = true;
		const final = () => {
			try {
				service.refresh({ budgetMs, priority: file ? [file] : [] });
			} catch (error) {
				if (!isBusyError(error)) this.log(`final refresh failed: ${messageOf(error)}`);
			} finally {
				service.close();
			}
		};
		const last = setImmediate(() => {
			const running = this.running;
			if (running) void running.catch(() => undefined).then(final);
			else final();
		});
		last.unref?.();
	}
}
