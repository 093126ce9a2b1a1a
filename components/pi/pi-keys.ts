/**
 * pi's raw key input (one key per call, as pi-tui's input buffer splits it) as the explorer's keymap reads keys:
 * pi-tui names the key (`parseKey`, passed in by the host so components/ need no Pi package), and the name becomes
 * the (input, KeyInfo) pair Ink would have produced.
 */
import type { KeyInfo } from "../root/keymap.js";

/** pi-tui's key naming function (`parseKey` of @earendil-works/pi-tui or @mariozechner/pi-tui). */
export type ParseKey = (data: string) => string | undefined;

const NAMED: Record<string, KeyInfo> = {
	up: { upArrow: true },
	down: { downArrow: true },
	left: { leftArrow: true },
	right: { rightArrow: true },
	pageUp: { pageUp: true },
	pageDown: { pageDown: true },
	home: { home: true },
	end: { end: true },
	enter: { return: true },
	escape: { escape: true },
	tab: { tab: true },
	"shift+tab": { tab: true, shift: true },
	backspace: { backspace: true },
	delete: { delete: true },
	f1: { f1: true },
	f2: { f2: true },
	f3: { f3: true },
	f4: { f4: true },
	f5: { f5: true },
	f6: { f6: true },
	f7: { f7: true },
};

// Controls and escape sequences are never text (a paste with them is cut to its printable part by the query line).
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The key as the explorer reads it, the canonical name pi-tui gave it, or null for what the explorer ignores. */
export function keyOfPi(data: string, parseKey: ParseKey): { input: string; key: KeyInfo; name: string; paste: boolean } | null {
	const name = parseKey(data);
	if (name === undefined) {
		if (data.length > 0 && !CONTROL.test(data)) return { input: data, key: {}, name: data, paste: [...data].length > 1 };
		return null;
	}
	if (name === "space") return { input: " ", key: {}, name, paste: false };
	const named = NAMED[name];
	if (named) return { input: "", key: named, name, paste: false };
	const m = /^(ctrl\+|alt\+|shift\+|ctrl\+alt\+)?(.+)$/.exec(name);
	const mod = m?.[1] ?? "";
	const base = m?.[2] ?? name;
	const arrow = NAMED[base];
	if (arrow && mod === "ctrl+") return { input: "", key: { ...arrow, ctrl: true }, name, paste: false };
	if (arrow && mod === "alt+") return { input: "", key: { ...arrow, meta: true }, name, paste: false };
	if ([...base].length !== 1) return null;
	if (mod === "ctrl+") return { input: base, key: { ctrl: true }, name, paste: false };
	if (mod === "alt+") return { input: base, key: { meta: true }, name, paste: false };
	if (mod === "shift+") return { input: base.toUpperCase(), key: {}, name, paste: false };
	if (mod === "") return { input: base, key: {}, name, paste: false };
	return null;
}
