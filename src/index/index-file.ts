/**
 * What is at the index's path, judged from the file system and its first bytes: its kind, its inode, whether SQLite
 * finds it sound, moving it aside, and making its folder. Reading a header never opens the file for writing (I22).
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import { APPLICATION_ID } from "./schema.js";
import { openDatabase } from "./sqlite.js";

/** Moves an unusable index (and its WAL files) aside, so nothing is deleted and a new one can be built. */
export function moveAside(path: string, why: string): string {
	const stamp = new Date().toISOString().replace(/[:.]/g, "-");
	const target = `${path}.${why}-${stamp}`;
	for (const suffix of ["", "-wal", "-shm"]) {
		if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
	}
	return target;
}

/** The size of a file, 0 when there is none. */
export const sizeOf = (file: string): number => {
	try {
		return statSync(file).size;
	} catch {
		return 0;
	}
};

/** The inode of the file at `path`, or null when there is none. */
export function inodeOf(path: string): number | null {
	try {
		return statSync(path).ino;
	} catch {
		return null;
	}
}

/** True when the index file at `path` passes SQLite's quick check on a connection of its own (read-only). */
export function soundAt(path: string): boolean {
	let db: Database.Database | undefined;
	try {
		db = openDatabase(path, { readonly: true, fileMustExist: true });
		return db.pragma("quick_check", { simple: true }) === "ok";
	} catch {
		return false;
	} finally {
		db?.close();
	}
}

/** What is at the index path, judged from the file system and the first 100 bytes alone (no SQLite open). */
export type FileKind = "missing" | "empty" | "directory" | "special" | "ours" | "sqlite" | "other";

const SQLITE_MAGIC = "SQLite format 3\u0000";

/** Reads what kind of file is at `path` without opening it for writing. */
export function fileKind(path: string): FileKind {
	let size: number;
	try {
		const st = statSync(path);
		if (st.isDirectory()) return "directory";
		if (!st.isFile()) return "special";
		size = st.size;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
		throw error;
	}
	if (size === 0) return "empty";
	const header = Buffer.alloc(100);
	const fd = openSync(path, "r");
	let n: number;
	try {
		n = readSync(fd, header, 0, 100, 0);
	} finally {
		closeSync(fd);
	}
	if (n < 100 || header.toString("latin1", 0, 16) !== SQLITE_MAGIC) return "other";
	// The application_id lives at offset 68 of the database header (big-endian).
	return header.readInt32BE(68) === APPLICATION_ID ? "ours" : "sqlite";
}

/** mkdir -p, one level at a time (Node's recursive mkdir never returns on some pseudo file systems such as /proc). */
export function makeDirectories(dir: string): void {
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
