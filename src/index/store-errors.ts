/**
 * What a SQLite error from the index means for a user: another writer (busy), a damaged file, a location that cannot
 * be written, or a native binding not built for this Node; each decides whether to wait, rebuild or answer as is.
 */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { IndexUnavailableError } from "../shared/errors.js";
import { emptyRefreshSummary, type RefreshSummary } from "../shared/types.js";

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

/**
 * True for a write that failed for a reason outside the index (a full disk, a read-only file, an I/O error such as
 * a WAL deleted under a running reader): the index as it is still answers, it just cannot be brought up to date.
 */
export function isWriteFault(error: unknown): boolean {
	const code = (error as { code?: string } | null)?.code ?? "";
	return (
		code === "SQLITE_FULL" ||
		code.startsWith("SQLITE_READONLY") ||
		(code.startsWith("SQLITE_IOERR") && code !== "SQLITE_IOERR_SHORT_READ") ||
		code === "SQLITE_CANTOPEN"
	);
}

/** An empty refresh summary that says why nothing was refreshed. */
export function notRefreshed(error: unknown): RefreshSummary {
	const why = (error as Error).message ?? String(error);
	return emptyRefreshSummary({ notes: [`index not refreshed (${why}); answered from what is indexed`] });
}

/** True when SQLite could not write or open because of the location's permissions (not the index's state). */
export function isReadonlyError(error: unknown): boolean {
	const code = (error as { code?: string } | null)?.code ?? "";
	return code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_CANTOPEN") || code === "SQLITE_PERM" || code === "SQLITE_IOERR_WRITE";
}

/**
 * What to run when better-sqlite3's compiled binding is missing or built for another Node: a package manager that
 * skips dependency build scripts (pnpm, which pi uses when settings `npmCommand` says so) installs the JavaScript but
 * never compiles the binding. Null for any other error.
 */
export function nativeBindingHint(error: unknown): string | null {
	const message = error instanceof Error ? error.message : String(error);
	const missing = /Could not locate the bindings file|better_sqlite3\.node/.test(message);
	const otherNode = /NODE_MODULE_VERSION/.test(message);
	if (!missing && !otherNode) return null;
	let dir = "the better-sqlite3 package directory";
	try {
		dir = dirname(dirname(createRequire(import.meta.url).resolve("better-sqlite3")));
	} catch {
		// Keep the generic wording: the hint must not fail where the binding already did.
	}
	const why = otherNode
		? `better-sqlite3's native binding was built for another Node version than this one (${process.version})`
		: "better-sqlite3's native binding is not built (a package manager that skips dependency build scripts, such as pnpm set as pi's `npmCommand`, leaves it so)";
	return `${why}. Build it with: cd '${dir}' && (npx --yes prebuild-install || npx --yes node-gyp rebuild --release), then restart pi (or /reload).`;
}
