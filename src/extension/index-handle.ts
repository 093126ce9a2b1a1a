/** The index of one pi process: opened lazily, refreshed before each tool call and in the background, closed at shutdown. */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type HistoryService, isBusyError, workspaceRoot } from "../service/service.js";
import type { Caller } from "../shared/types.js";
import { invokingEntry } from "./call-scope.js";

/** The parts of pi's ExtensionContext the tools read. */
export type CallerContext = Pick<ExtensionContext, "cwd" | "sessionManager">;

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

	constructor(
		private readonly openService: (cwd: string) => HistoryService,
		private readonly budgets: { call: number; background: number; delay: number },
		private readonly log: (message: string) => void,
	) {}

	private open(cwd: string): HistoryService {
		this.service ??= this.openService(cwd);
		return this.service;
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

	/** Refreshes within the call budget (own session first) and names the caller; never fails on a busy index. */
	async forCall(ctx: CallerContext, toolCallId?: string): Promise<{ service: HistoryService; caller: Caller; notes: string[]; pending: number }> {
		this.cwd = ctx.cwd;
		const service = await this.openForCall(ctx.cwd);
		const sm = ctx.sessionManager;
		const file = sm.getSessionFile();
		const notes: string[] = [];
		if (this.backgroundError) {
			notes.push(`background indexing failed earlier: ${this.backgroundError}`);
			this.backgroundError = null;
		}
		let pending = service.pending;
		try {
			const summary = service.refresh({ budgetMs: this.budgets.call, priority: file ? [file] : [] });
			pending = summary.pending;
			if (summary.busy) notes.push("index busy: another process (the history TUI or another pi) is writing it; answered from what is already indexed");
			if (summary.pending > 0 && !summary.busy) this.schedule(undefined, this.budgets.delay);
		} catch (error) {
			if (!isBusyError(error)) this.log(`refresh failed: ${messageOf(error)}`);
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
		return { service, caller, notes, pending };
	}

	/** Schedules a background refresh (the given session file first) without delaying pi. */
	schedule(ctx?: CallerContext, delay = this.budgets.delay): void {
		if (ctx) {
			this.cwd = ctx.cwd;
			const file = ctx.sessionManager.getSessionFile();
			if (file) this.priority.add(file);
		}
		if (this.timer) return;
		this.timer = setTimeout(() => this.runBackground(), delay);
		// Never keep pi alive for indexing: whatever is left is picked up by the next refresh.
		this.timer.unref?.();
	}

	// better-sqlite3 is synchronous: short budgeted chunks with pauses keep pi's event loop responsive.
	private runBackground(): void {
		this.timer = null;
		try {
			const summary = this.open(this.cwd).refresh({ budgetMs: this.budgets.background, priority: [...this.priority] });
			if (!summary.busy) this.priority.clear();
			if (summary.pending > 0 && !summary.busy) this.schedule(undefined, 25);
		} catch (error) {
			if (isBusyError(error)) return;
			this.backgroundError = messageOf(error);
			this.log(`background refresh failed: ${this.backgroundError}`);
		}
	}

	/** Stops background work, indexes the ending session once more if the process lives on, and closes the index. */
	shutdown(ctx: CallerContext, budgetMs: number): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		const service = this.service;
		this.service = null;
		if (!service) return;
		const file = ctx.sessionManager.getSessionFile();
		const last = setImmediate(() => {
			try {
				service.refresh({ budgetMs, priority: file ? [file] : [] });
			} catch (error) {
				if (!isBusyError(error)) this.log(`final refresh failed: ${messageOf(error)}`);
			} finally {
				service.close();
			}
		});
		last.unref?.();
	}
}
