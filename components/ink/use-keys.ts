/**
 * Keys from Ink's stdin, split one by one. Ink's useInput parses every input event as a single key press, so a
 * burst read in one chunk (`\x7f\x7f\x7f` from a held Backspace, `hhh`, `\x15x`) arrives as one unknown key and is
 * lost; here each event goes through the KeySplitter, and every key it yields is handed on in order.
 */
import { useStdin } from "ink";
import { useEffect, useRef } from "react";
import { type KeyPress, KeySplitter } from "../core/key-splitter.js";

/** Calls `onKey` for every key press, in order, however the terminal chunked them. */
export function useKeys(onKey: (k: KeyPress) => void): void {
	// Ink's own input hook listens on the same emitter; it is the only way to share stdin with Ink's renderer.
	const { setRawMode, internal_eventEmitter: events } = useStdin();
	const latest = useRef(onKey);
	latest.current = onKey;
	useEffect(() => {
		setRawMode(true);
		return () => setRawMode(false);
	}, [setRawMode]);
	useEffect(() => {
		const splitter = new KeySplitter();
		const onInput = (data: string) => {
			const keys = splitter.push(data);
			// Ink already waited for the rest of an escape sequence: what is still open now is a lone Escape (or Alt+[).
			if (splitter.waiting) keys.push(...splitter.flush());
			for (const k of keys) latest.current(k);
		};
		events.on("input", onInput);
		return () => {
			events.off("input", onInput);
		};
	}, [events]);
}
