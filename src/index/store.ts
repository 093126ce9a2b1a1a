/**
 * Opens the index file: WAL, busy timeout, schema version check. Never touches a file that is not ours (I22): the
 * file's header is read before SQLite opens it, and only our own index (our application_id, or anything at our
 * default location) is ever moved aside and rebuilt.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type Database from "better-sqlite3";
import { IndexUnavailableError } from "../shared/errors.js";
import { endCheckpointAside } from "./checkpoint-aside.js";
import { type FileKind, fileKind, inodeOf, makeDirectories, moveAside, sizeOf } from "./index-file.js";
import { ADDED_INDEXES_SQL, APPLICATION_ID, FILTER_INDEX_SQL, SCHEMA_SQL, SCHEMA_VERSION } from "./schema.js";
import { openDatabase } from "./sqlite.js";
import { isCorruptionError, isReadonlyError, isWriteFault, nativeBindingHint } from "./store-errors.js";

export { isBusyError, isCorruptionError, isWriteFault, nativeBindingHint, notRefreshed } from "./store-errors.js";

/** An open index with a per-connection statement cache. */
export class IndexStore {
	private readonly statements = new Map<string, Database.Statement>();
	/** When this is a private copy of an index on a read-only location: the original path, and the copy's folder. */
	copyOf: { path: string; dir: string } | null = null;
	/** True when this open created the index (there was none, or an unusable one was moved aside). */
	created = false;
	/** When opened, another process may have had the index open (its -shm existed): damage may be a WAL deleted under it. */
	sharedAtOpen = false;
	/** The inode of the file this connection opened: another file at the path later is another process's index. */
	inode: number | null = null;

	constructor(
		readonly db: Database.Database,
		readonly path: string,
		readonly readonly: boolean,
		readonly notes: string[],
	) {}

	/** A prepared statement, compiled once per connection. */
	prepare<P extends unknown[] | Record<string, unknown> = unknown[], R = unknown>(sql: string): Database.Statement<P, R> {
		let stmt = this.statements.get(sql);
		if (!stmt) {
			stmt = this.db.prepare(sql);
			this.statements.set(sql, stmt);
		}
		return stmt as unknown as Database.Statement<P, R>;
	}

	/** The SQL of every statement this connection compiled (a test checks their query plans on a fresh index). */
	preparedSql(): string[] {
		return [...this.statements.keys()];
	}

	private readonly cache = new Map<string, { version: string; value: unknown }>();

	/**
	 * A value computed from the index, recomputed only once the index changed: through this connection (its
	 * `total_changes()`) or any other (`data_version`). Callers must not modify what it returns.
	 */
	cached<T>(key: string, compute: () => T): T {
		const version = this.cacheVersion();
		const hit = this.cache.get(key);
		if (hit && hit.version === version) return hit.value as T;
		const value = compute();
		this.cache.set(key, { version, value });
		return value;
	}

	/**
	 * `compute`'s value for `key` among the values kept under `name` until the index changes: at most `max` keys, past
	 * which the map starts over (a long-lived explorer asks for many).
	 */
	remembered<T>(name: string, key: string, max: number, compute: () => T): T {
		const known = this.cached(name, () => new Map<string, T>());
		if (known.has(key)) return known.get(key) as T;
		const value = compute();
		if (known.size >= max) known.clear();
		known.set(key, value);
		return value;
	}

	/** Counts the commits of other connections (SQLite's data_version): unchanged while only this one wrote. */
	othersVersion(): number {
		return this.db.pragma("data_version", { simple: true }) as number;
	}

	/** Where the index stands for cached(): its own changes and any other connection's commits since it opened. */
	cacheVersion(): string {
		const changes = this.prepare<[], { n: number }>("SELECT total_changes() AS n").get()?.n ?? 0;
		return `${this.othersVersion()}:${changes}`;
	}

	/**
	 * Keeps the value cached under `key` valid across this connection's own writes since `since` (when it was last
	 * valid): `update` brings it in line with them (false drops it). Dropped too when another connection wrote
	 * meanwhile: only the caller knows what its own writes changed.
	 */
	carryCached<T>(key: string, since: string, update: (value: T) => boolean): void {
		const hit = this.cache.get(key);
		if (!hit || hit.version !== since) return;
		const version = this.cacheVersion();
		if (version === since) return;
		const others = (v: string) => v.slice(0, v.indexOf(":"));
		if (others(version) === others(since) && update(hit.value as T)) hit.version = version;
		else this.cache.delete(key);
	}

	/** Sets the connection's page cache size (KiB) and how much of the file it maps; shrinking frees pages at once. */
	setCacheKib(kib: number, mapBytes = 0): void {
		this.db.pragma(`cache_size = -${Math.trunc(kib)}`);
		this.db.pragma(`mmap_size = ${Math.trunc(mapBytes)}`);
	}

	/**
	 * Runs `work` through a write's small unmapped cache, then back to the search cache and map: a whole layout (or a
	 * shape read to make one) touches every page of a family, and through the map each would count in the peak RSS.
	 */
	withSmallCache<T>(work: () => T): T {
		this.setCacheKib(INGEST_CACHE_KIB);
		try {
			return work();
		} finally {
			this.setCacheKib(SEARCH_CACHE_KIB, SEARCH_MAP_BYTES);
		}
	}

	/** Reads a value from the meta table. */
	meta(key: string): string | null {
		const row = this.prepare<[string], { value: string }>("SELECT value FROM meta WHERE key = ?").get(key);
		return row ? row.value : null;
	}

	/** Writes a value to the meta table. */
	setMeta(key: string, value: string): void {
		this.prepare("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
	}

	/** Closes the connection; never throws. */
	close(): void {
		try {
			// optimize may ANALYZE whole tables a refresh grew: through the search map every page it reads would count in
			// the process's peak RSS, so it reads through a write's small cache instead (the connection is closing).
			if (!this.readonly && this.db.open) {
				this.setCacheKib(INGEST_CACHE_KIB);
				this.db.pragma("optimize");
			}
		} catch {
			// optimize is advisory
		}
		// Before the close: no connection of ours is left to the index once this returns.
		endCheckpointAside(this.db);
		try {
			this.db.close();
		} catch {
			// already closed
		}
		if (this.copyOf) rmSync(this.copyOf.dir, { recursive: true, force: true });
	}
}

/** Options of openStore. */
export interface OpenOptions {
	readonly?: boolean;
	/** Milliseconds a writer waits for another writer before the refresh reports "index busy". */
	busyTimeoutMs?: number;
	/** The path is our own default location: a file there that is not a usable index may be moved aside. */
	ownedLocation?: boolean;
	/** This open is of a private copy (openReadonlyCopy): a failure is final, no copy of the copy. */
	privateCopy?: boolean;
	/**
	 * An older index without the filter index (schema.ts FILTER_INDEX) gets it now: one statement over every event,
	 * seconds on a big index. Not inside pi, whose event loop must not wait that long.
	 */
	addFilterIndex?: boolean;
}

type Verdict = "ok" | "empty" | "foreign" | "old-version";

/**
 * A read-only location (a read-only mount, a backup disk): SQLite cannot open a WAL database there at all, so
 * search a private copy of it, and never refresh.
 */
function openReadonlyCopy(path: string, options: OpenOptions, why: string, readonlyError = true, withWal = true): IndexStore {
	const dir = mkdtempSync(join(tmpdir(), "pi-event-search-ro-"));
	try {
		const copy = join(dir, "index.sqlite");
		for (const suffix of withWal ? ["", "-wal"] : [""]) if (existsSync(path + suffix)) copyFileSync(path + suffix, copy + suffix);
		const store = openStore(copy, { ...options, readonly: true, privateCopy: true });
		store.copyOf = { path, dir };
		store.notes.push(
			withWal
				? `the index location ${readonlyError ? "is read-only" : "cannot be written"} (${why}); searching a copy of the index as it is, without refreshing`
				: `the index's WAL was deleted while another process had it open; searching the index as last checkpointed, without refreshing (it refreshes again once that process closes it)`,
		);
		return store;
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
}

/**
 * A private read-only copy of the index's main file alone, when that file is sound: the damage was in a WAL
 * deleted or replaced under a running process, so the index as last checkpointed still answers. Null otherwise.
 */
export function openWithoutWal(path: string, options: OpenOptions): IndexStore | null {
	let store: IndexStore;
	try {
		store = openReadonlyCopy(path, options, "WAL deleted", false, false);
	} catch {
		return null;
	}
	try {
		if (store.db.pragma("quick_check", { simple: true }) === "ok") return store;
	} catch {
		// damaged too
	}
	store.close();
	return null;
}

/**
 * A read-only open (status, --no-refresh, the query thread) that failed for a reason outside the index: SQLite cannot
 * make the WAL's shared-memory file on a read-only location, or the WAL was deleted under another process. A private
 * copy answers from what is there, with a note. Null when the error is another, or no copy answers either.
 */
export function openReadonlyFallback(path: string, options: OpenOptions, error: unknown): IndexStore | null {
	if (options.privateCopy || !(isReadonlyError(error) || isWriteFault(error) || isCorruptionError(error)) || !existsSync(path)) return null;
	// A shared-memory file without its WAL (or with an empty one a later reader's open made): the WAL was deleted while
	// a process had the index open.
	if (existsSync(`${path}-shm`) && sizeOf(`${path}-wal`) === 0) return openWithoutWal(path, options);
	try {
		return openReadonlyCopy(path, options, (error as Error).message, isReadonlyError(error));
	} catch {
		return null;
	}
}

function inspect(db: Database.Database): Verdict {
	const appId = db.pragma("application_id", { simple: true }) as number;
	const version = db.pragma("user_version", { simple: true }) as number;
	const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number };
	if ((appId === 0 || appId === APPLICATION_ID) && version === 0 && tables.n === 0) return "empty";
	if (appId !== APPLICATION_ID) return "foreign";
	if (version !== SCHEMA_VERSION) return "old-version";
	return "ok";
}

/**
 * SQLite page cache of a connection while it searches. An index up to SEARCH_MAP_BYTES is read through the map, which
 * leaves the cache nearly unused; past it, the cache holds what the map does not cover, and every page it holds counts
 * in the process's RSS. On the 5 GB bench history the explorer peaked about 40 MB lower with 16 MB than with 64, its
 * first runs the same and its repeats within 5% (the OS keeps the pages the cache drops).
 */
export const SEARCH_CACHE_KIB = 16384;
/** While a refresh writes, the cache stays small: the cold index's peak RSS is within its 300 MB bound with it. */
export const INGEST_CACHE_KIB = 16000;
/**
 * The page cache while a whole classification writes its states across turns (session-writer.ts classifyHeld): SQLite
 * writes dirty pages to the WAL once they fill the cache, so a small one spreads them over the turns and leaves the
 * commit little to write. A page written to the WAL and then changed again in the same transaction is overwritten in
 * place, and the commit then checksums every frame after it again: what is written again late must not go early.
 */
export const HELD_CACHE_KIB = 1024;
/**
 * Bytes of the index file a searching connection maps: a query's first run reads thousands of pages (FTS doclists,
 * the events of a filtered query's matches), each a read() and a copy into the page cache without the map. Every
 * mapped page a process touched counts in its RSS, so the map is bounded: the whole index of a 0.5 GB history fits,
 * and beyond it pages go through the page cache (SEARCH_CACHE_KIB). With 1 GB, one wordy query on a 5 GB history
 * peaked at 425 MB, a newest-first page of a common word at 773 MB (206 and 378 MB with this). A refresh writes
 * unmapped (setCacheKib without a map): pages a cold index touched would count in its peak RSS.
 */
export const SEARCH_MAP_BYTES = 256 * 1024 * 1024;

/** Settings after open() set the busy timeout and WAL mode. */
function configure(db: Database.Database, readonly: boolean): void {
	// WAL + NORMAL: a crash loses at most the last transactions, never consistency; the index is rebuildable.
	if (!readonly) db.pragma("synchronous = NORMAL");
	db.pragma(`cache_size = -${SEARCH_CACHE_KIB}`);
	db.pragma(`mmap_size = ${SEARCH_MAP_BYTES}`);
	db.pragma("temp_store = MEMORY");
}

/**
 * Adds the indexes of ADDED_INDEXES_SQL (and FILTER_INDEX_SQL when `filterIndex`) an older index lacks, without
 * waiting for a writer that holds the lock: a later open adds them then, and no answer depends on them. One that has
 * them takes no lock here.
 */
function addIndexes(db: Database.Database, busyMs: number, filterIndex: boolean): void {
	db.pragma("busy_timeout = 0");
	try {
		db.exec(ADDED_INDEXES_SQL);
		if (filterIndex) db.exec(FILTER_INDEX_SQL);
	} catch {
		// busy, or a write fault: searched without them meanwhile
	} finally {
		db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyMs))}`);
	}
}

function create(db: Database.Database): void {
	db.transaction(() => {
		db.exec(SCHEMA_SQL);
		db.pragma(`application_id = ${APPLICATION_ID}`);
		db.pragma(`user_version = ${SCHEMA_VERSION}`);
	}).immediate();
}

/** A one-line refusal to use a file that is not ours (I22); the file is left exactly as it is. */
function refuse(path: string, kind: FileKind): IndexUnavailableError {
	const what =
		kind === "directory"
			? "is a directory; the index must be a file path"
			: kind === "special"
				? "is not a regular file"
				: kind === "sqlite"
					? "is another program's SQLite database, not a pi-event-search index; left it untouched"
					: "is not a pi-event-search index; left it untouched";
	return new IndexUnavailableError(`${path} ${what} (choose another --index path)`, path);
}

/**
 * Decides, before SQLite touches the file, whether `path` may be used (I22). Our own index, a new or empty file are
 * used; anything else at our default location is moved aside (it can only be a damaged index of ours, even with its
 * header destroyed); anywhere else it is refused and left byte for byte as it was.
 */
function claim(path: string, options: OpenOptions, notes: string[]): void {
	const kind = fileKind(path);
	if (kind === "missing" || kind === "empty" || kind === "ours") return;
	if (kind === "directory" || kind === "special" || options.readonly || !options.ownedLocation) throw refuse(path, kind);
	const moved = moveAside(path, kind === "sqlite" ? "foreign" : "corrupt");
	notes.push(
		kind === "sqlite"
			? `${path} was not a pi-event-search index; moved it to ${moved} and built a new index`
			: `the index was damaged (not an SQLite file); moved it to ${moved} and rebuilt it`,
	);
}

/** Opens (or creates) the index at `path`; a damaged index of ours is moved aside with a note and rebuilt. */
export function openStore(path: string, options: OpenOptions = {}): IndexStore {
	const readonly = options.readonly === true;
	const busy = options.busyTimeoutMs ?? 5000;
	const notes: string[] = [];
	if (!readonly) {
		try {
			makeDirectories(dirname(path));
		} catch (error) {
			throw new IndexUnavailableError(
				`cannot create the index directory ${dirname(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
				path,
			);
		}
	} else if (!existsSync(path)) {
		throw new IndexUnavailableError(`no index at ${path}; run \`pi-history index\` first`, path);
	}
	for (let attempt = 0; attempt < 2; attempt++) {
		let db: Database.Database | undefined;
		claim(path, options, notes);
		// A WAL and shared-memory file without their index: what is left of an index deleted under a running process.
		// Useless without it, and a new index opened with them would read that process's view of another WAL as its own.
		if (!readonly && fileKind(path) === "missing") for (const suffix of ["-wal", "-shm"]) rmSync(path + suffix, { force: true });
		const shared = existsSync(`${path}-shm`);
		try {
			const isNew = !readonly && ["missing", "empty"].includes(fileKind(path));
			db = openDatabase(path, { readonly, fileMustExist: readonly });
			db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busy))}`);
			// Our mark goes into a new file's header first, so even a file left by a crash right now is known as ours.
			if (isNew) db.pragma(`application_id = ${APPLICATION_ID}`);
			// Opening succeeds on a read-only location; the first write would not. Find out now.
			if (!readonly) db.pragma("journal_mode = WAL");
		} catch (error) {
			db?.close();
			const copy = readonly ? openReadonlyFallback(path, options, error) : null;
			if (copy) return copy;
			if (!readonly && existsSync(path) && isReadonlyError(error)) return openReadonlyCopy(path, options, (error as Error).message);
			// A full disk cannot even hold the WAL's shared-memory file: search a copy elsewhere, as for a read-only place.
			if (!readonly && existsSync(path) && isWriteFault(error)) return openReadonlyCopy(path, options, (error as Error).message, false);
			const hint = nativeBindingHint(error);
			if (hint) throw new IndexUnavailableError(`cannot open the index ${path}: ${hint}`, path);
			// Damage found while opening (a truncated file, corrupt pages): claim() let only our own index get here.
			if (!readonly && isCorruptionError(error) && existsSync(path)) {
				const fallback = shared ? openWithoutWal(path, options) : null;
				if (fallback) return fallback;
				notes.push(`the index was damaged (${(error as Error).message}); moved it to ${moveAside(path, "corrupt")} and rebuilt it`);
				continue;
			}
			if (isCorruptionError(error))
				throw new IndexUnavailableError(`the index ${path} is damaged (${(error as Error).message}); run \`pi-history index\` to rebuild it`, path);
			throw new IndexUnavailableError(`cannot open the index ${path}: ${(error as Error).message}`, path);
		}
		let verdict: Verdict;
		try {
			configure(db, readonly);
			verdict = inspect(db);
		} catch (error) {
			db.close();
			const copy = readonly ? openReadonlyFallback(path, options, error) : null;
			if (copy) return copy;
			if (isCorruptionError(error) && readonly)
				throw new IndexUnavailableError(`the index ${path} is damaged (${(error as Error).message}); run \`pi-history index\` to rebuild it`, path);
			if (!isCorruptionError(error)) throw new IndexUnavailableError(`cannot read the index ${path}: ${(error as Error).message}`, path);
			const fallback = shared ? openWithoutWal(path, options) : null;
			if (fallback) return fallback;
			notes.push(`the index was damaged (${(error as Error).message}); moved it to ${moveAside(path, "corrupt")} and rebuilt it`);
			continue;
		}
		if (verdict === "ok") {
			if (!readonly) addIndexes(db, busy, options.addFilterIndex !== false);
			const store = new IndexStore(db, path, readonly, notes);
			store.sharedAtOpen = shared;
			store.inode = inodeOf(path);
			return store;
		}
		if (verdict === "empty" && !readonly) {
			create(db);
			const store = new IndexStore(db, path, readonly, notes);
			store.created = true;
			store.inode = inodeOf(path);
			return store;
		}
		db.close();
		if (readonly)
			throw new IndexUnavailableError(`the index ${path} is ${verdict === "empty" ? "empty" : `of another kind (${verdict})`}; run \`pi-history index\``, path);
		const why = verdict === "foreign" ? "foreign" : "old";
		const moved = moveAside(path, why);
		notes.push(
			verdict === "foreign"
				? `${path} was not a pi-event-search index; moved it to ${moved} and built a new index`
				: `the index had another schema version; moved it to ${moved} and rebuilt it`,
		);
	}
	throw new IndexUnavailableError(`cannot open the index ${path}`, path);
}
