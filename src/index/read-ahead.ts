/**
 * A sliced refresh's big slices, read before the write transaction that writes them: reading a 2M-character line
 * (its JSON, its projection) and writing it (FTS5's insert of its 256 KB of indexed text, then the flush at commit)
 * would otherwise share one turn of the host's event loop (refresh-sliced.ts ingestSliced).
 */
import { type ScanResult, type SliceCarry, scanFile } from "../project/file-scan.js";
import type { DiscoveredFile } from "../source/discover.js";
import { applyScan, type FileOutcome, type PlanBasis, planBasis, planFile, type SliceLimits, sameBasis, unchanged } from "./ingest.js";
import type { SessionWriter } from "./session-writer.js";
import type { IndexStore } from "./store.js";

/** A slice read before its write transaction, with the rows it was planned from. */
export interface ReadAhead {
	file: DiscoveredFile;
	basis: PlanBasis;
	scan: ScanResult;
	/** Bytes of the longest line read: a long one gets its write and its commit a turn each. */
	longest: number;
}

/** The next slice of a file with more than `limits.maxBytes` left to read; null for a small or unchanged file. */
export function readAhead(store: IndexStore, file: DiscoveredFile, full: boolean, limits: SliceLimits, carry: { value?: SliceCarry }): ReadAhead | null {
	const basis = planBasis(store, file.path);
	if (!full && unchanged(basis, file)) return null;
	if (file.size - (full ? 0 : (basis.row?.indexed_bytes ?? 0)) <= (limits.maxBytes ?? Number.POSITIVE_INFINITY)) return null;
	const scan = scanFile(planFile(file.path, basis, full, limits), carry);
	const longest = scan.error === undefined ? scan.entries.reduce((n, s) => Math.max(n, s.entry.length), 0) : 0;
	return { file, basis, scan, longest };
}

/**
 * Writes a slice read ahead inside the caller's write transaction, or (`again`) reads it anew when another process
 * indexed the file in between, as the pipelined refresh does.
 */
export function writeReadAhead(
	store: IndexStore,
	writer: SessionWriter,
	read: ReadAhead,
	rootId: number | null,
	full: boolean,
	again: () => FileOutcome,
): FileOutcome {
	const now = planBasis(store, read.file.path);
	if (!sameBasis(now, read.basis)) return again();
	return applyScan(store, writer, read.file, rootId, now, read.scan, full);
}
