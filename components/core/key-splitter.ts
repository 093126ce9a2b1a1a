/**
 * Splits terminal input into keys, whatever chunks it arrives in: printable characters one by one, control bytes,
 * escape sequences (CSI, SS3, Alt+key), and a bracketed paste as one piece of text. A burst of keys read in one
 * chunk (a held key, fast typing, `hhh` sent at once) must act exactly like the same keys typed slowly; a paste
 * must not fire commands. Mouse reports (SGR 1006 and legacy 1000) are keys of their own: the wheel becomes wheelUp
 * or wheelDown, every other mouse event is dropped, so a report never leaks into the query line as text. The
 * splitter keeps an unfinished escape sequence until the next chunk or `flush()`.
 */
import type { KeyInfo } from "./keys.js";

/** One key press: the text it carries (a letter, or a paste) and the named keys and modifiers. */
export interface KeyPress {
	input: string;
	key: KeyInfo;
	/** The text of a bracketed paste: insert it, never read it as commands. */
	paste?: boolean;
}

const ESC = "\u001b";
const PASTE_START = "\u001b[200~";
const PASTE_END = "\u001b[201~";
const CTRL_C = "\u0003";
/** The longest paste kept waiting for its end marker; a start marker without an end must not swallow input for good. */
export const MAX_PASTE_CHARS = 1024 * 1024;

const CSI_KEYS: Record<string, KeyInfo> = {
	A: { upArrow: true },
	B: { downArrow: true },
	C: { rightArrow: true },
	D: { leftArrow: true },
	H: { home: true },
	F: { end: true },
	Z: { tab: true, shift: true },
	P: { f1: true },
	Q: { f2: true },
	R: { f3: true },
	S: { f4: true },
};
const TILDE_KEYS: Record<string, KeyInfo> = {
	"1": { home: true },
	"7": { home: true },
	"4": { end: true },
	"8": { end: true },
	"3": { delete: true },
	"5": { pageUp: true },
	"6": { pageDown: true },
	"11": { f1: true },
	"12": { f2: true },
	"13": { f3: true },
	"14": { f4: true },
	"15": { f5: true },
	"17": { f6: true },
	"18": { f7: true },
};

/** Modifier flags of an xterm modifier parameter (2 = Shift, 3 = Alt, 5 = Ctrl, …: 1 + bit mask). */
function modifiers(param: string | undefined): KeyInfo {
	const m = Number(param ?? "1") - 1;
	if (!(m > 0)) return {};
	return { ...(m & 1 ? { shift: true } : {}), ...(m & 2 ? { meta: true } : {}), ...(m & 4 ? { ctrl: true } : {}) };
}

/**
 * A mouse report as a key: wheel up or down (buttons 64 and 65, whatever the modifier bits); null for every other
 * mouse event (clicks, releases, motion), which the explorer does not use but must never read as text.
 */
function mouseKey(button: number, x: number, y: number): KeyPress | null {
	// Bits 4, 8 and 16 are Shift, Alt and Ctrl; 32 is motion. What is left names the button.
	const b = button & ~(4 | 8 | 16);
	const at = x > 0 && y > 0 ? { x, y } : {};
	if (b === 64) return { input: "", key: { wheelUp: true, ...at } };
	if (b === 65) return { input: "", key: { wheelDown: true, ...at } };
	return null;
}

/** The key of one complete escape sequence (ESC [ … final, ESC O x); null when it names no key we know. */
function sequenceKey(seq: string): KeyPress | null {
	// The Linux console's F1–F4.
	const linux: Record<string, KeyInfo> = { "\u001b[[A": { f1: true }, "\u001b[[B": { f2: true }, "\u001b[[C": { f3: true }, "\u001b[[D": { f4: true } };
	if (linux[seq]) return { input: "", key: linux[seq] as KeyInfo };
	// SGR mouse (mode 1006): ESC [ < button ; column ; row M (press) or m (release).
	if (seq[2] === "<") {
		const [b, x, y] = seq.slice(3, -1).split(";").map(Number);
		return seq.at(-1) === "M" ? mouseKey(b ?? -1, x ?? 0, y ?? 0) : null;
	}
	// Legacy mouse (mode 1000 without 1006): ESC [ M and three bytes, each value + 32.
	if (seq.length === 6 && seq[2] === "M") return mouseKey((seq.charCodeAt(3) - 32) & 0xff, seq.charCodeAt(4) - 32, seq.charCodeAt(5) - 32);
	if (seq[1] === "O") {
		const k = CSI_KEYS[seq[2] as string];
		return k ? { input: "", key: k } : null;
	}
	const body = seq.slice(2, -1);
	const final = seq.at(-1) as string;
	const params = body.split(";");
	if (final === "~") {
		const k = TILDE_KEYS[params[0] as string];
		return k ? { input: "", key: { ...k, ...modifiers(params[1]) } } : null;
	}
	const k = CSI_KEYS[final];
	return k ? { input: "", key: { ...k, ...modifiers(params[1]) } } : null;
}

/** The key of one control byte or printable character (not ESC). */
function charKey(c: string): KeyPress {
	const code = c.codePointAt(0) as number;
	if (code === 0x0d || code === 0x0a) return { input: "", key: { return: true } };
	if (code === 0x09) return { input: "", key: { tab: true } };
	if (code === 0x7f || code === 0x08) return { input: "", key: { backspace: true } };
	if (code === 0) return { input: " ", key: { ctrl: true } };
	if (code < 0x20) return { input: String.fromCharCode(code + 0x60), key: { ctrl: true } };
	return { input: c, key: /^[A-Z]$/.test(c) ? { shift: true } : {} };
}

/**
 * The length of the escape sequence at the start of `s` (which starts with ESC), or -1 when it is not finished yet.
 * CSI runs to its final byte; SS3 takes one more byte; ESC + any other character is Alt+that character.
 */
function sequenceLength(s: string): number {
	if (s.length < 2) return -1;
	const second = s[1] as string;
	if (second === "[") {
		// A legacy mouse report carries three raw bytes after ESC [ M, any of which may look like a final byte.
		if (s[2] === "M") return s.length < 6 ? -1 : 6;
		for (let i = 2; i < s.length; i++) {
			const b = s.charCodeAt(i);
			if (b >= 0x40 && b <= 0x7e && !(b === 0x5b && i === 2)) return i + 1;
			if (b < 0x20 || b > 0x7e) return i; // broken sequence: cut before the stray byte
		}
		return -1;
	}
	if (second === "O") return s.length < 3 ? -1 : 3;
	if (second === ESC) return 1; // ESC ESC: the first is a lone Escape
	const cp = s.codePointAt(1) as number;
	return 1 + (cp > 0xffff ? 2 : 1);
}

/** A stateful splitter: push chunks, get the complete keys; an unfinished escape waits for more input or flush(). */
export class KeySplitter {
	private pending = "";
	private paste: string | null = null;

	/** The keys completed by this chunk, in order. */
	push(chunk: string): KeyPress[] {
		const out: KeyPress[] = [];
		let s = this.pending + chunk;
		this.pending = "";
		while (s.length > 0) {
			if (this.paste !== null) {
				const end = s.indexOf(PASTE_END);
				const interrupt = s.indexOf(CTRL_C);
				if (interrupt !== -1 && (end === -1 || interrupt < end)) {
					// Ctrl+C always works: a lone paste start must not take the way out with it.
					const text = this.paste + s.slice(0, interrupt);
					if (text) out.push({ input: text, key: {}, paste: true });
					out.push(charKey(CTRL_C));
					this.paste = null;
					s = s.slice(interrupt + 1);
					continue;
				}
				if (end === -1) {
					// Keep a possible start of the end marker for the next chunk.
					let keep = 0;
					for (let k = Math.min(PASTE_END.length - 1, s.length); k > 0; k--)
						if (PASTE_END.startsWith(s.slice(-k))) {
							keep = k;
							break;
						}
					this.paste += s.slice(0, s.length - keep);
					if (this.paste.length <= MAX_PASTE_CHARS) {
						this.pending = s.slice(s.length - keep);
						return out;
					}
					// No end marker within the bound: the paste ends here and what follows is keys again.
					out.push({ input: this.paste, key: {}, paste: true });
					this.paste = null;
					s = s.slice(s.length - keep);
					continue;
				}
				out.push({ input: this.paste + s.slice(0, end), key: {}, paste: true });
				this.paste = null;
				s = s.slice(end + PASTE_END.length);
				continue;
			}
			if (s[0] !== ESC) {
				const cp = s.codePointAt(0) as number;
				// Half of a surrogate pair: the other half is in the next chunk.
				if (s.length === 1 && cp >= 0xd800 && cp <= 0xdbff) {
					this.pending = s;
					return out;
				}
				const c = String.fromCodePoint(cp);
				out.push(charKey(c));
				s = s.slice(c.length);
				continue;
			}
			if (PASTE_START.startsWith(s) && s.length < PASTE_START.length) {
				this.pending = s;
				return out;
			}
			if (s.startsWith(PASTE_START)) {
				this.paste = "";
				s = s.slice(PASTE_START.length);
				continue;
			}
			const n = sequenceLength(s);
			if (n === -1) {
				this.pending = s;
				return out;
			}
			const seq = s.slice(0, n);
			s = s.slice(n);
			if (n === 1) out.push({ input: "", key: { escape: true } });
			else if (seq[1] === "[" || seq[1] === "O") {
				const k = sequenceKey(seq);
				if (k) out.push(k);
			} else {
				// Alt+key: the key with meta set (Alt+Backspace, Alt+b).
				const k = charKey(seq.slice(1));
				out.push({ input: k.input, key: { ...k.key, meta: true } });
			}
		}
		return out;
	}

	/**
	 * Whether an escape sequence is waiting to be finished (and a pause means it never will be). A legacy mouse report
	 * is not: its three bytes after ESC [ M may come in a later read however long the pause (Ink splits them off).
	 */
	get waiting(): boolean {
		return this.pending.startsWith(ESC) && this.paste === null && !this.pending.startsWith(`${ESC}[M`);
	}

	/** Ends a waiting escape: a lone ESC is the Escape key; a cut sequence is dropped. */
	flush(): KeyPress[] {
		const p = this.pending;
		this.pending = "";
		if (this.paste !== null) return [];
		if (p === ESC) return [{ input: "", key: { escape: true } }];
		if (p.startsWith(ESC) && p.length === 2 && p[1] !== "[" && p[1] !== "O") return this.push(p);
		return p === `${ESC}[` || p === `${ESC}O` ? [{ input: p[1] as string, key: { meta: true } }] : [];
	}
}
