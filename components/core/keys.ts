/** The key vocabulary: the fields of a key press the explorer reads, and the canonical name of a press. */

/** The key fields of Ink's useInput we read (a subset, so tests can pass plain objects). */
export interface KeyInfo {
	upArrow?: boolean;
	downArrow?: boolean;
	leftArrow?: boolean;
	rightArrow?: boolean;
	pageUp?: boolean;
	pageDown?: boolean;
	/** Function keys the explorer binds: F1 help, F2 sessions, F3 go to a ref, F4 sort, F5 refresh, F6 group, F7 continue in pi. */
	f1?: boolean;
	f2?: boolean;
	f3?: boolean;
	f4?: boolean;
	f5?: boolean;
	f6?: boolean;
	f7?: boolean;
	/** The mouse wheel (a mouse report the key splitter turned into a key). */
	wheelUp?: boolean;
	wheelDown?: boolean;
	/** Where the pointer was (1-based column and row) for a mouse report. */
	x?: number;
	y?: number;
	home?: boolean;
	end?: boolean;
	return?: boolean;
	escape?: boolean;
	ctrl?: boolean;
	shift?: boolean;
	meta?: boolean;
	tab?: boolean;
	backspace?: boolean;
	delete?: boolean;
}

/**
 * The canonical name of a key press: "up", "pgdn", "enter", "esc", "tab", "shift+tab", "backspace", "delete" (the
 * forward-deleting key), "ctrl+c", "alt+b", "alt+backspace", "alt+left", "space", "wheelup"/"wheeldown" (the mouse
 * wheel), or the printable character itself.
 */
export function keyName(input: string, key: KeyInfo): string | null {
	const mod = key.ctrl ? "ctrl+" : key.meta && !key.escape ? "alt+" : "";
	if (key.upArrow) return "up";
	if (key.downArrow) return "down";
	if (key.leftArrow) return `${mod}left`;
	if (key.rightArrow) return `${mod}right`;
	if (key.pageUp) return "pgup";
	if (key.pageDown) return "pgdn";
	if (key.f1) return "f1";
	if (key.f2) return "f2";
	if (key.f3) return "f3";
	if (key.f4) return "f4";
	if (key.f5) return "f5";
	if (key.f6) return "f6";
	if (key.f7) return "f7";
	if (key.wheelUp) return "wheelup";
	if (key.wheelDown) return "wheeldown";
	if (key.home) return "home";
	if (key.end) return "end";
	if (key.return) return "enter";
	if (key.tab) return key.shift ? "shift+tab" : "tab";
	if (key.backspace) return `${key.meta ? "alt+" : ""}backspace`;
	if (key.delete) return "delete";
	if (key.escape) return "esc";
	if (key.ctrl && input.length === 1) return `ctrl+${input.toLowerCase()}`;
	if (key.meta) return input.length === 1 ? `alt+${input}` : null;
	if (input === " ") return "space";
	if (input.length === 1) return input;
	return null;
}
