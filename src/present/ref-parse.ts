/**
 * Reading an event reference back from whatever a face printed or copied: the `sessionId entryId` pair `y` copies
 * (refOf), the CLI's `ref …` line, the status bar's `ref … (pi-history read …)`, the Pi tools' labelled
 * `sessionId=… entryId=… fragmentId=…`, a `--json` document's `"sessionId": "…"` fields, the `sessionId/entryId`
 * key our messages print, and a `pi-history read|trace|open …` command line. Pure: the caller checks that the event
 * exists. Every failure says what was understood and what is missing.
 */

/** An event reference read from text, with the fragment the text named (a command's --fragment, a tool's fragmentId). */
export interface ParsedRef {
	sessionId: string;
	entryId: string;
	fragmentId?: string;
}

/** What parsing gives: the reference, or why there is none. */
export type RefParse = { ok: true; ref: ParsedRef } | { ok: false; error: string };

const COMMANDS = new Set(["read", "trace", "open"]);
// Flags of our commands that take a value (the value is not a positional).
const VALUE_FLAGS = new Set([
	"fragment",
	"offset",
	"max-chars",
	"neighbors-before",
	"neighbors-after",
	"before",
	"after",
	"order",
	"index",
	"sessions-dir",
	"workspace",
	"limit",
	"snippet-chars",
	"q",
	"query",
]);

const fail = (error: string): RefParse => ({ ok: false, error });

/** Splits a command line like a POSIX shell would for plain words and '…' / "…" quoting (no expansion). */
function words(text: string): string[] {
	const out: string[] = [];
	let cur = "";
	let quote: string | null = null;
	let has = false;
	for (const c of text) {
		if (quote) {
			if (c === quote) quote = null;
			else cur += c;
		} else if (c === "'" || c === '"') {
			quote = c;
			has = true;
		} else if (/\s/.test(c)) {
			if (has || cur) out.push(cur);
			cur = "";
			has = false;
		} else cur += c;
	}
	if (has || cur) out.push(cur);
	return out;
}

// Punctuation that surrounds a ref in prose or in our own messages: `(pi-history read a b)`, "ref a b.", `a b`.
// Scanned by hand: an anchored-at-end character-class regex retries from every position (quadratic on `)))…x`).
function trimToken(t: string): string {
	let start = 0;
	while (start < t.length && "`(<[".includes(t[start] as string)) start++;
	let end = t.length;
	while (end > start && "`)>],;.".includes(t[end - 1] as string)) end--;
	return t.slice(start, end);
}

/** Pasted text longer than this is refused: a ref, a command line or one `--json` hit fits many times over. */
export const MAX_REF_TEXT = 64 * 1024;

/** An id as echoed in an error: bounded, so a huge paste does not come back as a huge message. */
const echo = (id: string) => (id.length > 80 ? `${id.slice(0, 80)}…` : id);

const hasControl = (s: string) => /[\u0000-\u001f\u007f-\u009f]/.test(s);

function checked(sessionId: string, entryId: string, fragmentId?: string): RefParse {
	if (!sessionId || !entryId) return fail("a ref needs a sessionId and an entryId");
	if (hasControl(sessionId) || hasControl(entryId)) return fail("a ref cannot hold control characters");
	return { ok: true, ref: { sessionId, entryId, ...(fragmentId ? { fragmentId } : {}) } };
}

/** Labelled forms: `sessionId=X entryId=Y fragmentId=Z` (Pi tools' text) and `"sessionId": "X"` (JSON). */
function labelled(text: string): RefParse | null {
	const field = (name: string) => new RegExp(`\\b${name}["']?\\s*[=:]\\s*["']?([^\\s"',}\\]]+)`).exec(text)?.[1];
	const sessionId = field("sessionId");
	const entryId = field("entryId");
	if (sessionId === undefined && entryId === undefined) return null;
	if (sessionId === undefined) return fail(`entryId=${echo(entryId ?? "")} names no session: add its sessionId (sessionId=… entryId=…)`);
	if (entryId === undefined) return fail(`sessionId=${echo(sessionId)} names no event: add its entryId (sessionId=… entryId=…)`);
	return checked(sessionId, entryId, field("fragmentId"));
}

/** A `pi-history <command> <sessionId> <entryId> [flags]` line, from the word after `pi-history` (or main.cjs) on. */
function commandLine(tokens: string[]): RefParse | null {
	const at = tokens.findIndex((t) => /(^|[\\/])(pi-history|main\.c?js)$/.test(trimToken(t)));
	const rest = at >= 0 ? tokens.slice(at + 1) : COMMANDS.has(tokens[0] ?? "") ? tokens : null;
	if (rest === null) return null;
	const positional: string[] = [];
	let fragmentId: string | undefined;
	let command: string | null = null;
	for (let i = 0; i < rest.length; i++) {
		const t = rest[i] as string;
		if (t.startsWith("-")) {
			const [name, inline] = t.replace(/^-+/, "").split(/=(.*)/s);
			const value = inline ?? (VALUE_FLAGS.has(name ?? "") ? rest[++i] : undefined);
			if (name === "fragment" && value) fragmentId = value;
			continue;
		}
		if (command === null) {
			command = t;
			continue;
		}
		positional.push(trimToken(t));
	}
	if (command === null) return fail("a pi-history command line needs read, trace or open with <sessionId> <entryId>");
	if (!COMMANDS.has(command)) return fail(`pi-history ${command} names no event: paste a read, trace or open line`);
	const ids = positional.filter(Boolean);
	if (ids.length !== 2) return fail(`pi-history ${command} needs <sessionId> <entryId> (found ${ids.length} id${ids.length === 1 ? "" : "s"})`);
	return checked(ids[0] as string, ids[1] as string, fragmentId);
}

/** Parses a pasted or typed event reference (see the module comment for the forms). */
export function parseRef(text: string): RefParse {
	if (text.length > MAX_REF_TEXT) return fail(`the pasted text has ${text.length} characters; a ref is at most ${MAX_REF_TEXT} (paste the ref alone)`);
	const trimmed = text.trim();
	if (trimmed === "") return fail("paste a ref: sessionId entryId, sessionId=… entryId=…, or a pi-history read … line");
	const tokens = words(trimmed);
	// A command line first: the status bar's "ref a b (pi-history read a b)" holds a bare pair too, and they agree.
	const command = commandLine(tokens);
	if (command) return command;
	const label = labelled(trimmed);
	if (label) return label;
	let bare = tokens.map(trimToken).filter(Boolean);
	if (bare[0] === "ref" || bare[0] === "event") bare = bare.slice(1);
	if (bare.length === 1) {
		const parts = (bare[0] as string).split("/");
		if (parts.length === 2) return checked(parts[0] as string, parts[1] as string);
		return fail(`one id (${echo(bare[0] as string)}): a ref is a sessionId and an entryId`);
	}
	if (bare.length === 2) return checked(bare[0] as string, bare[1] as string);
	return fail(`${bare.length} words: a ref is a sessionId and an entryId (or a pi-history read … line)`);
}

const hexOf = (id: string) => id.replace(/-/g, "").toLowerCase();

/**
 * The session a short id names: the explorer shows sessions by the tail of their id (`#a5fd`), pi's `--fork` takes
 * a prefix. An exact id wins; else the one session whose id (dashes dropped) starts or ends with it (4+ characters).
 */
export function resolveSessionId(short: string, sessions: ReadonlyArray<{ id: string }>): { id: string } | { error: string } {
	if (sessions.some((s) => s.id === short)) return { id: short };
	const want = hexOf(short.replace(/^#/, ""));
	if (want.length < 4) return { error: `no session ${short} in the index` };
	const found = sessions.filter((s) => hexOf(s.id).startsWith(want) || hexOf(s.id).endsWith(want));
	if (found.length === 1) return { id: (found[0] as { id: string }).id };
	if (found.length === 0) return { error: `no session ${short} in the index` };
	return {
		error: `${short} matches ${found.length} sessions (${found
			.slice(0, 3)
			.map((s) => s.id)
			.join(", ")}${found.length > 3 ? ", …" : ""}): give more of the id`,
	};
}
