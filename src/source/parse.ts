/** Parses pi session lines (v1, v2, v3) into a header and entries with stable ids; the only reader of raw JSONL. */
import { hash } from "node:crypto";
import { hugeHint, readByHint, sampledLineHash } from "./huge-line.js";
import { streamJson } from "./json-stream.js";
import type { RawLine } from "./lines.js";

/** A session file's first line, normalized. */
export interface SessionHeader {
	id: string;
	version: number;
	cwd: string;
	timestamp: string;
	/** Absolute path of the parent session file (`parentSession`, or legacy `branchedFrom`). */
	parentSession: string | null;
	raw: Record<string, unknown>;
	notes: string[];
}

/** One persisted entry with the id it is known by. */
export interface ParsedEntry {
	id: string;
	parentId: string | null;
	/** True when the id was synthesized (v1 files, or entries without an id). */
	synthetic: boolean;
	type: string;
	raw: Record<string, unknown>;
	lineNo: number;
	offset: number;
	length: number;
	lineHash: string;
	/** A huge line's locator hint (huge-line.ts): stored with the entry so a read need not stream the line again. */
	locatorHint?: string;
	/** v1 compactions: `firstKeptEntryIndex` resolved to a synthetic id, as pi's migration would. */
	legacyFirstKeptEntryId?: string | null;
}

/** What one line turned out to be. */
export type LineOutcome =
	| { kind: "header"; header: SessionHeader }
	| { kind: "entry"; entry: ParsedEntry }
	| { kind: "skip"; reason: SkipReason; lineNo: number };

/** Why a line was not used. */
export type SkipReason = "blank" | "invalid-json" | "not-object" | "extra-header" | "no-header" | "too-big";

/** Parser state that survives between refreshes, so appended lines continue the same file. */
export interface ParserState {
	version: number;
	/** v1 only: the id of the previous entry, which parents the next one. */
	lastId: string | null;
	headerSeen: boolean;
}

/** A short, stable hash of a line's bytes: detects a changed line at a known locator. */
export function hashLine(bytes: Buffer | string): string {
	// One-shot hash(): a third of createHash()'s cost on short lines, which are most lines.
	return hash("sha1", bytes, "hex").slice(0, 16);
}

/** Synthetic id of a v1 (or id-less) entry: its physical line number, stable while the bytes do not change. */
export function syntheticId(lineNo: number): string {
	return `L${lineNo}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseLine(line: RawLine): { value?: unknown; blank: boolean; lineHash?: string; hint?: string; tooBig?: boolean } {
	if (line.huge) {
		const { fd, hint, lineHash } = line.huge;
		// Read again by its locator hint: the sampled hash stands for the line hash, long strings are skipped.
		if (hint && lineHash) {
			const value = readByHint(fd, line.offset, line.length - 1, hint);
			if (value !== undefined) return { value, blank: false, lineHash, hint };
		}
		// Too long to hold: streamed, long strings kept by their ends (json-stream.ts). Whitespace-only it is not.
		const r = streamJson(fd, line.offset, line.length - 1);
		if (!r.ok) return { blank: r.reason === "blank", tooBig: r.reason === "too-big" };
		const sampled = sampledLineHash(fd, line.offset, line.length - 1);
		return { value: r.value, blank: false, lineHash: r.lineHash, hint: sampled ? hugeHint(sampled, r.longs, line.offset) : undefined };
	}
	const bytes = line.bytes;
	// A line of only whitespace is a blank line; pi skips it silently.
	let i = 0;
	while (i < bytes.length && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 13)) i++;
	if (i === bytes.length) return { blank: true };
	try {
		return { value: JSON.parse(bytes.toString("utf8")), blank: false };
	} catch {
		return { blank: false };
	}
}

/** Reads a header object; undefined when the object is not a usable `session` header. */
export function readHeader(value: Record<string, unknown>): SessionHeader | undefined {
	if (value.type !== "session" || typeof value.id !== "string" || value.id.length === 0) return undefined;
	const notes: string[] = [];
	const rawVersion = value.version;
	let version = 1;
	if (typeof rawVersion === "number" && Number.isInteger(rawVersion) && rawVersion >= 1) {
		version = rawVersion;
		if (rawVersion > 3) notes.push(`header version ${rawVersion} is newer than 3; read as v3`);
	} else if (rawVersion !== undefined) {
		// A present but unusable version still means "has ids": reading it as v1 would invent a chain.
		version = 3;
		notes.push(`header version ${JSON.stringify(rawVersion)} is not a positive integer; read as v3`);
	}
	let cwd = "";
	if (typeof value.cwd === "string") cwd = value.cwd;
	else notes.push("header has no string cwd");
	const timestamp = typeof value.timestamp === "string" ? value.timestamp : "";
	const parent =
		typeof value.parentSession === "string" && value.parentSession
			? value.parentSession
			: typeof value.branchedFrom === "string" && value.branchedFrom
				? value.branchedFrom
				: null;
	return { id: value.id, version, cwd, timestamp, parentSession: parent, raw: value, notes };
}

/** Incremental parser of one session file: feed it complete lines in file order. */
export class SessionParser {
	header: SessionHeader | null = null;
	private state: ParserState;
	/** v1: ids by parsed-object index (header = 0), for `firstKeptEntryIndex`. */
	private readonly v1IdsByIndex: Array<string | null> = [];

	constructor(state?: ParserState) {
		this.state = state ? { ...state } : { version: 0, lastId: null, headerSeen: false };
	}

	/** The state to persist after the last accepted line. */
	snapshot(): ParserState {
		return { ...this.state };
	}

	/** Classifies one complete line. */
	accept(line: RawLine): LineOutcome {
		const { value, blank, lineHash, hint, tooBig } = parseLine(line);
		if (blank) return { kind: "skip", reason: "blank", lineNo: line.lineNo };
		if (tooBig) return { kind: "skip", reason: "too-big", lineNo: line.lineNo };
		if (value === undefined) return { kind: "skip", reason: "invalid-json", lineNo: line.lineNo };
		if (!isObject(value)) return { kind: "skip", reason: "not-object", lineNo: line.lineNo };
		if (!this.state.headerSeen) {
			const header = readHeader(value);
			if (!header) return { kind: "skip", reason: "no-header", lineNo: line.lineNo };
			this.header = header;
			this.state.headerSeen = true;
			this.state.version = header.version;
			this.v1IdsByIndex.push(null);
			return { kind: "header", header };
		}
		// Later `session` lines come from pi's duplicate-header bug; the first header stands.
		if (value.type === "session") {
			this.v1IdsByIndex.push(null);
			return { kind: "skip", reason: "extra-header", lineNo: line.lineNo };
		}
		const entry = this.entry(value, line, lineHash ?? hashLine(line.bytes));
		if (hint) entry.locatorHint = hint;
		return { kind: "entry", entry };
	}

	private entry(value: Record<string, unknown>, line: RawLine, lineHash: string): ParsedEntry {
		const type = typeof value.type === "string" ? value.type : "unknown";
		const { lineNo, offset, length } = line;
		// Object literals of one shape, not spreads: this runs for every line of a cold index.
		if (this.state.version <= 1) {
			// v1 has no ids: a linear chain with ids that stay the same as long as the bytes do.
			const id = syntheticId(lineNo);
			const entry: ParsedEntry = { id, parentId: this.state.lastId, synthetic: true, type, raw: value, lineNo, offset, length, lineHash };
			if (type === "compaction" && typeof value.firstKeptEntryIndex === "number") {
				const kept = this.v1IdsByIndex[value.firstKeptEntryIndex];
				entry.legacyFirstKeptEntryId = kept ?? null;
			}
			this.v1IdsByIndex.push(id);
			this.state.lastId = id;
			return entry;
		}
		const hasId = typeof value.id === "string" && value.id.length > 0;
		const id = hasId ? (value.id as string) : syntheticId(line.lineNo);
		const parentId = typeof value.parentId === "string" && value.parentId.length > 0 ? value.parentId : null;
		return { id, parentId, synthetic: !hasId, type, raw: value, lineNo, offset, length, lineHash };
	}
}

/** Parses one line in isolation (exact reads): the entry at a locator, given the file's header version. */
export function parseEntryLine(line: RawLine, version: number): ParsedEntry | undefined {
	const parser = new SessionParser({ version, lastId: null, headerSeen: true });
	const outcome = parser.accept(line);
	return outcome.kind === "entry" ? outcome.entry : undefined;
}
