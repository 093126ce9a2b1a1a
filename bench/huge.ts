/**
 * Inputs for the size-independent rows (DESIGN §7, issue 16 item 5), written straight as pi v3 JSONL (shapes of
 * docs/design.md §10) without pi's SessionManager, which would take minutes for a million entries:
 *  - linear: one session of N entries in a single chain (user, assistant, tool result, repeating);
 *  - single line: a session whose tool result holds one text of N bytes;
 *  - unfinished: a session whose last line grows to N bytes and never ends (a writer still streaming it).
 * Each file lives in `<dir>/sessions/--tmp-huge--/`, so `<dir>/sessions` is the session root to index.
 */
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/** The words planted in the middle entry of the linear session and near the start of the huge line. */
export const MIDDLE_NEEDLE = "hugemiddleneedle";
export const LINE_NEEDLE = "hugelineneedle";
/** Session id of every generated file (a file per directory, so they never collide). */
export const HUGE_SESSION_ID = "0199a000-0000-7000-8000-00000000beef";
const CWD = "/tmp/huge";
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
/** Bytes gathered before one write: big writes keep generation near disk speed. */
const FLUSH = 8 * 1024 * 1024;

/** Entry id of the i-th entry (1-based): 8 hex digits, as pi's are. */
export const entryId = (i: number) => i.toString(16).padStart(8, "0");

/** Where a case's session file is, and the root to index. */
export function hugePaths(dir: string): { root: string; file: string } {
	const root = join(dir, "sessions");
	return { root, file: join(root, "--tmp-huge--", "2026-01-05T09-00-00-000Z_huge.jsonl") };
}

function open(dir: string): { fd: number; file: string; root: string } {
	rmSync(dir, { recursive: true, force: true });
	const paths = hugePaths(dir);
	mkdirSync(join(paths.root, "--tmp-huge--"), { recursive: true });
	return { fd: openSync(paths.file, "w"), ...paths };
}

const header = () => `${JSON.stringify({ type: "session", version: 3, id: HUGE_SESSION_ID, timestamp: new Date(T0).toISOString(), cwd: CWD })}\n`;

const USAGE = { input: 120, output: 30, cacheRead: 0, cacheWrite: 0, totalTokens: 150, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** The i-th entry (1-based) of the linear session; the middle one carries MIDDLE_NEEDLE. */
export function linearEntry(i: number, middle: number): string {
	const ts = T0 + i * 1000;
	const base = { id: entryId(i), parentId: i === 1 ? null : entryId(i - 1), timestamp: new Date(ts).toISOString() };
	const word = i === middle ? ` ${MIDDLE_NEEDLE}` : "";
	const k = i % 3;
	const message =
		k === 1
			? { role: "user", content: [{ type: "text", text: `Step ${i}: check handleWebhook retries${word}` }], timestamp: ts }
			: k === 2
				? {
						role: "assistant",
						content: [
							{ type: "text", text: `Looking at step ${i}${word}.` },
							{ type: "toolCall", id: `call_${i}`, name: "read", arguments: { path: `src/file${i % 97}.ts` } },
						],
						api: "anthropic-messages",
						provider: "anthropic",
						model: "claude-sonnet-4-5",
						usage: USAGE,
						stopReason: "toolUse",
						timestamp: ts,
					}
				: {
						role: "toolResult",
						toolCallId: `call_${i - 1}`,
						toolName: "read",
						content: [{ type: "text", text: `export const value${i} = ${i};${word}` }],
						isError: false,
						timestamp: ts,
					};
	return `${JSON.stringify({ type: "message", ...base, message })}\n`;
}

/** A user message `i` under `parent`: a branch off an earlier entry (pi's /tree, then a new prompt). */
export function branchEntry(i: number, parent: number): string {
	const ts = T0 + i * 1000;
	const message = { role: "user", content: [{ type: "text", text: `Step ${i}: try another way from ${entryId(parent)}` }], timestamp: ts };
	return `${JSON.stringify({ type: "message", id: entryId(i), parentId: entryId(parent), timestamp: new Date(ts).toISOString(), message })}\n`;
}

/** A compaction `i` under `parent` that keeps the path from entry `firstKept` on (pi's /compact). */
export function compactionEntry(i: number, parent: number, firstKept: number): string {
	return `${JSON.stringify({
		type: "compaction",
		id: entryId(i),
		parentId: entryId(parent),
		timestamp: new Date(T0 + i * 1000).toISOString(),
		summary: `Checked handleWebhook retries up to step ${firstKept}.`,
		firstKeptEntryId: entryId(firstKept),
		tokensBefore: 150_000,
	})}\n`;
}

/** Writes a linear session of `entries` entries; returns its file, root and the middle entry's id. */
export function writeLinear(dir: string, entries: number): { file: string; root: string; middleId: string; bytes: number } {
	const { fd, file, root } = open(dir);
	const middle = Math.floor(entries / 2);
	let buf = header();
	let bytes = 0;
	try {
		for (let i = 1; i <= entries; i++) {
			buf += linearEntry(i, middle);
			if (buf.length >= FLUSH) {
				bytes += writeSync(fd, buf);
				buf = "";
			}
		}
		bytes += writeSync(fd, buf);
	} finally {
		closeSync(fd);
	}
	return { file, root, middleId: entryId(middle), bytes };
}

/** A user prompt and the assistant's read call before a big result: a realistic head of the session. */
function prelude(): string {
	return (
		linearEntry(1, 0) +
		`${JSON.stringify({
			type: "message",
			id: entryId(2),
			parentId: entryId(1),
			timestamp: new Date(T0 + 2000).toISOString(),
			message: {
				role: "assistant",
				content: [{ type: "toolCall", id: "call_big", name: "bash", arguments: { command: "cat dump.log" } }],
				api: "anthropic-messages",
				provider: "anthropic",
				model: "claude-sonnet-4-5",
				usage: USAGE,
				stopReason: "toolUse",
				timestamp: T0 + 2000,
			},
		})}\n`
	);
}

/** Filler text for a huge string: log-like words, JSON-safe (no quotes, backslashes or control characters). */
function filler(bytes: number): string {
	const unit = "INFO pool acquireConn took 12ms; retry_with_backoff ok; cache hit ratio 0.93 for tenant 42. ";
	return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** Writes `bytes` of the huge text in chunks after `open`, then `close` (nothing when the line stays unfinished). */
function writeHugeText(fd: number, open: string, bytes: number, close: string): number {
	let written = writeSync(fd, open);
	const chunk = filler(FLUSH);
	let left = bytes;
	while (left > 0) {
		const n = Math.min(left, chunk.length);
		written += writeSync(fd, n === chunk.length ? chunk : chunk.slice(0, n));
		left -= n;
	}
	if (close) written += writeSync(fd, close);
	return written;
}

/** The tool result line of entry `id`, cut where its text goes: `open` ends inside the text (after `text`). */
function toolResultLine(id: number, text: string): { open: string; close: string } {
	const head = JSON.stringify({
		type: "message",
		id: entryId(id),
		parentId: entryId(id - 1),
		timestamp: new Date(T0 + id * 1000).toISOString(),
		message: { role: "toolResult", toolCallId: "call_big", toolName: "bash", content: [{ type: "text", text: "" }], isError: false, timestamp: T0 + id * 1000 },
	});
	// Everything up to the empty text's closing quote, with the start of the text spliced in.
	const at = head.indexOf('"text":""') + '"text":"'.length;
	return { open: head.slice(0, at) + text, close: `${head.slice(at)}\n` };
}

/** Writes a session whose third entry is a tool result of about `bytes` bytes of text (needle near its start). */
export function writeSingleLine(dir: string, bytes: number): { file: string; root: string; entryId: string; bytes: number } {
	const { fd, file, root } = open(dir);
	try {
		let n = writeSync(fd, header() + prelude());
		const { open: o, close } = toolResultLine(3, `dump start ${LINE_NEEDLE} `);
		n += writeHugeText(fd, o, bytes, close);
		return { file, root, entryId: entryId(3), bytes: n };
	} finally {
		closeSync(fd);
	}
}

/** Writes a session whose last line is a tool result of `bytes` bytes that never ends (no closing quote, no newline). */
export function writeUnfinished(dir: string, bytes: number): { file: string; root: string; bytes: number } {
	const { fd, file, root } = open(dir);
	try {
		let n = writeSync(fd, header() + prelude());
		const { open: o } = toolResultLine(3, "streaming ");
		n += writeHugeText(fd, o, bytes, "");
		return { file, root, bytes: n };
	} finally {
		closeSync(fd);
	}
}

/** Appends more of the unfinished line (the writer keeps streaming); returns the bytes added. */
export function growUnfinished(file: string, bytes: number): number {
	const fd = openSync(file, "a");
	try {
		return writeHugeText(fd, "", bytes, "");
	} finally {
		closeSync(fd);
	}
}
