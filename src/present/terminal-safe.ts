/**
 * Terminal safety (DESIGN I21): session text is attacker-controlled, so every face shows it through here. Control
 * characters become visible symbols one UTF-16 unit each (so match offsets into a snippet stay valid): ESC and the
 * C1 introducers (CSI 0x9B, OSC 0x9D, DCS 0x90) can no longer start an escape sequence, so OSC 52 clipboard writes,
 * OSC 0 titles, OSC 8 links, DCS strings and CSI screen edits arrive as inert text; CR and BS can no longer overwrite
 * what was printed; bidi overrides can no longer reorder a line.
 */

/** C0 controls (tab and newline kept by `neutralize`, not by `neutralizeLine`), DEL, C1, bidi and line/paragraph separators. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function picture(c: string): string {
	const code = c.charCodeAt(0);
	// C0 has Unicode control pictures (U+2400 + code: ␛ for ESC, ␍ for CR, ␈ for BS, ␇ for BEL).
	if (code < 0x20) return String.fromCharCode(0x2400 + code);
	if (code === 0x7f) return "\u2421";
	if (code <= 0x9f) return "\ufffd";
	// Bidi marks, embeddings, overrides and isolates, and the line/paragraph separators.
	return "\u2426";
}

/** Text safe to write to a terminal: controls shown as visible symbols; newlines and tabs kept. */
export function neutralize(s: string): string {
	return s.replace(UNSAFE, picture);
}

/** Like `neutralize`, for one line: newlines and tabs become visible symbols too. */
export function neutralizeLine(s: string): string {
	return s.replace(UNSAFE_LINE, picture);
}

/** Every string inside `value` neutralized (a deep copy; numbers, booleans and null as they are). */
export function neutralizeDeep<T>(value: T): T {
	if (typeof value === "string") return neutralize(value) as T;
	if (Array.isArray(value)) return value.map((v) => neutralizeDeep(v)) as T;
	if (value && typeof value === "object") {
		const out: Record<string, unknown> = {};
		for (const [k, v] of Object.entries(value)) out[neutralize(k)] = neutralizeDeep(v);
		return out as T;
	}
	return value;
}

/** What JSON.stringify leaves raw that a terminal would act on: DEL, C1, bidi controls, U+2028/2029. */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON text that is also terminal-safe: the characters JSON.stringify leaves raw are written as \u escapes (same value). */
export function safeJson(value: unknown, space?: number): string {
	return JSON.stringify(value, null, space).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
