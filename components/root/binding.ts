/** One entry of the keymap's table, shared by its two halves (keymap.ts, keymap-overlays.ts). */
import type { Mode } from "../core/modes.js";
import type { Action } from "./actions.js";
import type { State } from "./state-core.js";

/** A key binding: the keys, the modes where it acts, the action, and what help and the status bar say. */
export interface Binding {
	keys: string[];
	modes: Mode[];
	action: Action;
	help: string;
	/** Short label for the status bar; bindings without one are listed in help only. */
	hint?: string;
	/** How the status bar writes the keys (default: the first two keys). */
	hintKeys?: string;
	/** Place in the status bar (lower first; the bar is cut at the width, so what matters most comes first). */
	hintOrder?: number;
	/**
	 * Why the key cannot act in this state (null: it can), as data: pressing it shows the reason as the message
	 * instead of doing nothing, and help shows it next to the key.
	 */
	disabled?: (s: State) => string | null;
}
