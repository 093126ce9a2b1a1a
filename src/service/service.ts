/** The one core every face uses: opens the index, refreshes it, and answers search, read, trace and status. */
import { inodeOf, moveAside, soundAt } from "../index/index-file.js";
import { refresh, refreshPipelined, refreshSliced } from "../index/refresh.js";
import type { RefreshOptions } from "../index/refresh-options.js";
import { countPending } from "../index/refresh-plan.js";
import { rootClaim } from "../index/root-owners.js";
import { indexStatus } from "../index/status.js";
import {
	isBusyError as busy,
	type IndexStore,
	isCorruptionError,
	isWriteFault,
	notRefreshed,
	type OpenOptions,
	openReadonlyFallback,
	openStore,
	openWithoutWal,
} from "../index/store.js";
import { authorizationRoot } from "../query/authorize.js";
import { readEvent } from "../query/read.js";
import { countHits, search } from "../query/search.js";
import { sessionSearch } from "../query/session-hits.js";
import { sessionTree } from "../query/session-tree.js";
import { listSessions } from "../query/sessions.js";
import { traceEvent } from "../query/trace.js";
import { INDEXER_WHOLE_MAX_ENTRIES, type KeepOptions, type KeepSummary, keepLayouts, keepLayoutsSliced } from "../query/tree-layout-keep.js";
import { treeWindow } from "../query/tree-window.js";
import { forkAbove } from "../query/walk.js";
import type { ResolvedConfig } from "../shared/config.js";
import type { HistoryQueries } from "../shared/queries.js";
import type {
	Caller,
	EventRef,
	ForkAbove,
	ForkAboveRequest,
	HitCount,
	IndexStatus,
	ReadRequest,
	ReadResult,
	RefreshSummary,
	SearchRequest,
	SearchResult,
	SessionListRequest,
	SessionListResult,
	SessionSearchRequest,
	SessionSearchResult,
	TraceResult,
	TreeRequest,
	TreeResult,
	TreeWindow,
	TreeWindowRequest,
} from "../shared/types.js";
import { FreshnessWatch } from "./freshness-watch.js";

/** True when another connection holds the index's write lock: the caller may try again shortly. */
export function isBusyError(error: unknown): boolean {
	return busy(error);
}

/** The folder a caller working in `cwd` may search: the configured root, else its git worktree, else `cwd` (I16). */
export function workspaceRoot(cwd: string, configuredRoot?: string): string {
	return authorizationRoot(cwd, configuredRoot);
}

/** Options of HistoryService.open. */
export interface ServiceOptions extends OpenOptions {
	config: ResolvedConfig;
}

/** The index and the session roots it mirrors. */
export class HistoryService implements HistoryQueries {
	/** Notes from opening the index (e.g. a damaged file moved aside). */
	readonly notes: string[];
	private pendingFiles = 0;
	/** The session folders' watch, once a long-lived host asked for it (watchFolders). */
	private freshness: FreshnessWatch | null = null;

	private constructor(
		private store: IndexStore,
		readonly config: ResolvedConfig,
		private readonly options: ServiceOptions,
	) {
		this.notes = [...store.notes];
	}

	/** Opens the index named by the config (creating it, or moving an unusable one aside). */
	static open(options: ServiceOptions): HistoryService {
		// A writer that holds the lock longer than this makes a refresh report "index busy" instead of waiting:
		// searches read the WAL snapshot and never wait. `pi-history index` asks for a longer wait.
		const withDefaults = { busyTimeoutMs: 250, ownedLocation: options.config.indexIsDefault, ...options };
		return new HistoryService(openStore(options.config.indexPath, withDefaults), options.config, withDefaults);
	}

	/** The path of the index file (the original, when a read-only location made us search a copy). */
	get indexPath(): string {
		return this.store.copyOf?.path ?? this.store.path;
	}

	/** Files a budgeted refresh has not reached yet. */
	get pending(): number {
		return this.pendingFiles;
	}

	private recover<T>(run: () => T): T {
		try {
			return run();
		} catch (error) {
			if (this.store.readonly) {
				// Read-only (status, --no-refresh): a read-only location or a WAL deleted under another process shows only
				// at the first read; a private copy answers from what is there.
				const copy = this.store.copyOf === null ? openReadonlyFallback(this.config.indexPath, this.options, error) : null;
				if (!copy) throw error;
				this.store.close();
				this.store = copy;
				this.notes.push(...copy.notes);
				return run();
			}
			if (!isCorruptionError(error)) throw error;
			this.store.close();
			// The file this connection read was deleted or replaced (another process built a new index there), or
			// only this connection's view was damaged: the file at the path is not ours to move aside; open it again.
			const path = this.store.path;
			if (this.store.copyOf === null && (inodeOf(path) !== this.store.inode || soundAt(path))) {
				this.store = openStore(this.config.indexPath, this.options);
				this.notes.push(...this.store.notes);
				return run();
			}
			// A WAL deleted under a running explorer makes a sound index look damaged: answer from its main file.
			const fallback = this.store.sharedAtOpen ? openWithoutWal(this.config.indexPath, this.options) : null;
			if (fallback) {
				this.store = fallback;
				this.notes.push(...fallback.notes);
				return run();
			}
			// A damaged index is disposable (I5): keep it aside for inspection and start over.
			const moved = moveAside(this.store.path, "corrupt");
			this.store = openStore(this.config.indexPath, this.options);
			this.notes.push(`the index was damaged (${(error as Error).message}); moved it to ${moved} and started a new one`);
			return run();
		}
	}

	/** Brings the index up to date with the session files. */
	refresh(options: RefreshOptions = {}): RefreshSummary {
		const asked = this.freshness?.beforeSync(this.store, options) ?? options;
		let summary: RefreshSummary;
		try {
			summary = this.recover(() => refresh(this.store, this.config.roots, this.claimed(asked)));
		} catch (error) {
			// Faults answer, not fail: a full disk or a read-only index leaves what is indexed searchable.
			if (!isWriteFault(error)) throw error;
			summary = notRefreshed(error);
		}
		this.freshness?.after(this.store, summary);
		this.pendingFiles = summary.pending;
		summary.notes.unshift(...this.takeNotes());
		return summary;
	}

	/**
	 * Watches the session folders for as long as the service is open (a long-lived host: pi's extension), so an
	 * asynchronous refresh stats only the files written since the last one while the watch can vouch for the rest
	 * (freshness-watch.ts). Returns how changes are noticed ("off" when watching failed).
	 */
	watchFolders(): FreshnessWatch["mode"] {
		this.freshness ??= new FreshnessWatch(this.config.roots.map((r) => r.path));
		return this.freshness.mode;
	}

	/** A refresh's options with this agent dir's claim on its roots: roots it no longer names leave the index. */
	private claimed(options: RefreshOptions): RefreshOptions {
		return { ...options, claim: rootClaim(this.config) };
	}

	/**
	 * Like refresh(), but sliced: short transactions with turns of the event loop in between, so a host (pi's
	 * extension) is never held for long, even inside a big file. Faults and damage are handled like refresh().
	 */
	refreshSliced(options: RefreshOptions = {}): Promise<RefreshSummary> {
		return this.refreshInTurns((asked) => refreshSliced(this.store, this.config.roots, asked), options);
	}

	/** Like refresh(), but big work reads files in a worker thread while this thread writes (CLI `index`, TUI). */
	refreshAsync(options: RefreshOptions = {}): Promise<RefreshSummary> {
		return this.refreshInTurns((asked) => refreshPipelined(this.store, this.config.roots, asked), options);
	}

	/**
	 * The guard both asynchronous refreshes share: a write fault answers with what is indexed, damage falls back to
	 * a synchronous refresh (which moves the index aside and starts over), and the pending count and notes are kept.
	 */
	private async refreshInTurns(run: (options: RefreshOptions) => Promise<RefreshSummary>, options: RefreshOptions): Promise<RefreshSummary> {
		const asked = this.freshness ? await this.freshness.before(this.store, options) : options;
		let summary: RefreshSummary;
		try {
			summary = await run(this.claimed(asked));
		} catch (error) {
			if (isWriteFault(error)) summary = notRefreshed(error);
			else if (!isCorruptionError(error) || this.store.readonly) throw error;
			// The synchronous refresh takes no word from the watch: it checks as without one.
			else return this.refresh(options);
		}
		this.freshness?.after(this.store, summary);
		this.pendingFiles = summary.pending;
		summary.notes.unshift(...this.takeNotes());
		return summary;
	}

	/** Searches the index (DESIGN §5). */
	search(request: SearchRequest): SearchResult {
		const result = this.recover(() => search(this.store, request, this.pendingFiles));
		result.notes.unshift(...this.takeNotes());
		return result;
	}

	/** How many events match a search (up to a cap), without ranking them: the explorer's total after its first page. */
	count(request: SearchRequest): HitCount {
		return this.recover(() => countHits(this.store, request));
	}

	/** Answers a `session_search` (seed 003) with our ranking and rules. */
	sessionSearch(request: SessionSearchRequest): SessionSearchResult {
		const result = this.recover(() => sessionSearch(this.store, request, this.pendingFiles));
		result.notes.unshift(...this.takeNotes());
		return result;
	}

	/** True when opening created the index (there was none yet, or an unusable one was moved aside). */
	get created(): boolean {
		return this.store.created;
	}

	/** Reads one event exactly from its source. */
	read(request: ReadRequest): ReadResult {
		return this.recover(() => readEvent(this.store, request));
	}

	/** Traces one event's relationships. */
	trace(request: EventRef & { caller?: Caller }): TraceResult {
		return this.recover(() => traceEvent(this.store, request));
	}

	/** The whole tree of a session's fork family (the tree view), centred on an event, with a query's hits marked. */
	tree(request: TreeRequest & { caller?: Caller }): TreeResult {
		return this.recover(() => sessionTree(this.store, request));
	}

	/** A window of the tree view's rows of a session's fork family, laid out here with the request's folds and filter. */
	treeWindow(request: TreeWindowRequest & { caller?: Caller }): TreeWindow {
		return this.recover(() => treeWindow(this.store, request));
	}

	/**
	 * Brings the kept tree layouts of big sessions up to the index, after a refresh: the explorer's first open of such
	 * a session then reads a few chunks. Nothing on a read-only index; a busy or full index leaves them for later.
	 */
	keepTreeLayouts(options: KeepOptions = {}): KeepSummary {
		return this.keepGuarded(() => keepLayouts(this.store, { maxWholeEntries: INDEXER_WHOLE_MAX_ENTRIES, spill: true, ...options }));
	}

	/** keepTreeLayouts with a turn of the event loop between units (pi's extension); `maxWholeEntries` bounds a unit. */
	async keepTreeLayoutsSliced(options: KeepOptions = {}): Promise<KeepSummary> {
		const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
		try {
			return await keepLayoutsSliced(this.store, pause, options);
		} catch (error) {
			if (isWriteFault(error) || busy(error)) return { appended: 0, whole: 0, left: 0 };
			throw error;
		}
	}

	private keepGuarded(run: () => KeepSummary): KeepSummary {
		if (this.store.readonly) return { appended: 0, whole: 0, left: 0 };
		try {
			return this.recover(run);
		} catch (error) {
			if (isWriteFault(error) || busy(error)) return { appended: 0, whole: 0, left: 0 };
			throw error;
		}
	}

	/** Every session (or a workspace's) with size, fork points and lineage: the explorer's session browser. */
	sessions(request: SessionListRequest = {}): SessionListResult {
		return this.recover(() => listSessions(this.store, request));
	}

	/** The nearest fork above an event, in time proportional to the path walked; null when there is none. */
	forkAbove(request: ForkAboveRequest): ForkAbove | null {
		return this.recover(() => forkAbove(this.store, request));
	}

	/** Counts, sizes, freshness and problems of the index. */
	status(): IndexStatus {
		return this.recover(() => indexStatus(this.store, this.indexPath, rootClaim(this.config)));
	}

	/** Number of session files whose fingerprint differs from the index (a discovery pass, no parsing). */
	countPending(): number {
		return countPending(this.store, this.config.roots);
	}

	private takeNotes(): string[] {
		return this.notes.splice(0, this.notes.length);
	}

	/** Closes the index. */
	close(): void {
		this.freshness?.stop();
		this.store.close();
	}
}
