/** Opens the index file: WAL, busy timeout, schema version check, corrupt or foreign files moved aside and rebuilt. */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { IndexUnavailableError } from "../shared/errors.js";
import { APPLICATION_ID, SCHEMA_SQL, SCHEMA_VERSION } from "./schema.js";

/** An open index with a per-connection statement cache. */
export class IndexStore {
	private readonly statements = new Map<string, Database.Statement>();
	/** When this is a private copy of an index on a read-only location: the original path, and the copy's folder. */
	copyOf: { path: string; dir: string } | null = null;

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
			if (!this.readonly && this.db.open) this.db.pragma("optimize");
		} catch {
			// optimize is advisory
		}
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
}

/** True when another connection holds the write lock (also when opening failed for that reason). */
export function isBusyError(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	if (typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))) return true;
	return error instanceof IndexUnavailableError && /database is locked|SQLITE_BUSY/i.test(error.message);
}

/** True for SQLite errors that mean the file is damaged or not a database. */
export function isCorruptionError(error: unknown): boolean {
	const code = (error as { code?: string } | null)?.code ?? "";
	return code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB" || code === "SQLITE_IOERR_SHORT_READ";
}

/** Moves an unusable index (and its WAL files) aside, so nothing is deleted and a new one can be built. */
export function moveAside(path: string, why: string): string {
	const stamp = new Date().toISOString().replace(/[:.]/g, "-");
	const target = `${path}.${why}-${stamp}`;
	for (const suffix of ["", "-wal", "-shm"]) {
		if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
	}
	return target;
}

type Verdict = "ok" | "empty" | "foreign" | "old-version";

function isReadonlyError(error: unknown): boolean {
	const code = (error as { code?: string } | null)?.code ?? "";
	return code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_CANTOPEN") || code === "SQLITE_PERM" || code === "SQLITE_IOERR_WRITE";
}

/**
 * A read-only location (a read-only mount, a backup disk): SQLite cannot open a WAL database there at all, so
 * search a private copy of it, and never refresh.
 */
function openReadonlyCopy(path: string, options: OpenOptions, why: string): IndexStore {
	const dir = mkdtempSync(join(tmpdir(), "pi-event-search-ro-"));
	const copy = join(dir, "index.sqlite");
	for (const suffix of ["", "-wal"]) if (existsSync(path + suffix)) copyFileSync(path + suffix, copy + suffix);
	const store = openStore(copy, { ...options, readonly: true });
	store.copyOf = { path, dir };
	store.notes.push(`the index location is read-only (${why}); searching a copy of the index as it is, without refreshing`);
	return store;
}

/** mkdir -p, one level at a time (Node's recursive mkdir never returns on some pseudo file systems such as /proc). */
function makeDirectories(dir: string): void {
	const missing: string[] = [];
	let current = dir;
	while (!existsSync(current)) {
		missing.push(current);
		const parent = dirname(current);
		if (parent === current) break;
		current = parent;
	}
	for (const d of missing.reverse()) mkdirSync(d);
}

function inspect(db: Database.Database): Verdict {
	const appId = db.pragma("application_id", { simple: true }) as number;
	const version = db.pragma("user_version", { simple: true }) as number;
	const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number };
	if (appId === 0 && version === 0 && tables.n === 0) return "empty";
	if (appId !== APPLICATION_ID) return "foreign";
	if (version !== SCHEMA_VERSION) return "old-version";
	return "ok";
}

/** Settings after open() set the busy timeout and WAL mode. */
function configure(db: Database.Database, readonly: boolean): void {
	// WAL + NORMAL: a crash loses at most the last transactions, never consistency; the index is rebuildable.
	if (!readonly) db.pragma("synchronous = NORMAL");
	db.pragma("cache_size = -16000");
	db.pragma("temp_store = MEMORY");
}

function create(db: Database.Database): void {
	db.transaction(() => {
		db.exec(SCHEMA_SQL);
		db.pragma(`application_id = ${APPLICATION_ID}`);
		db.pragma(`user_version = ${SCHEMA_VERSION}`);
	}).immediate();
}

/** Opens (or creates) the index at `path`; an unusable file is moved aside with a note and rebuilt. */
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
		try {
			db = new Database(path, { readonly, fileMustExist: readonly });
			db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busy))}`);
			// Opening succeeds on a read-only location; the first write would not. Find out now.
			if (!readonly) db.pragma("journal_mode = WAL");
		} catch (error) {
			db?.close();
			if (!readonly && existsSync(path) && isReadonlyError(error)) return openReadonlyCopy(path, options, (error as Error).message);
			throw new IndexUnavailableError(`cannot open the index ${path}: ${(error as Error).message}`, path);
		}
		let verdict: Verdict;
		try {
			configure(db, readonly);
			verdict = inspect(db);
		} catch (error) {
			db.close();
			if (!isCorruptionError(error) || readonly) {
				throw new IndexUnavailableError(`cannot read the index ${path}: ${(error as Error).message}`, path);
			}
			notes.push(`the index was damaged (${(error as Error).message}); moved it to ${moveAside(path, "corrupt")} and rebuilt it`);
			continue;
		}
		if (verdict === "ok") return new IndexStore(db, path, readonly, notes);
		if (verdict === "empty" && !readonly) {
			create(db);
			return new IndexStore(db, path, readonly, notes);
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
