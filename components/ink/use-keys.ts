/**
 * Keys from stdin, split one by one, through Ink's public API only: the stdin Ink reads (useStdin) hands every chunk
 * it reads to its 'data' listeners too. Ink's useInput parses every input event as a single key press, so a burst
 * read in one chunk (`\x7f\x7f\x7f` from a held Backspace, `hhh`, `\x15x`) would arrive as one unknown key and be
 * lost; here each chunk goes through the KeySplitter, and every key it yields is handed on in order. This is the
 * explorer's one input path: no component reads keys on its own (the prompts are edited by the reducer).
 */
import { useStdin } from "ink";
import { useEffect, useRef } from "react";
import { type KeyPress, KeySplitter } from "../core/key-splitter.js";

/** Calls `onKey` for every key press, in order, however the terminal chunked them. */
export function useKeys(onKey: (k: KeyPress) => void): void {
	const { stdin, setRawMode } = useStdin();
	const latest = useRef(onKey);
	latest.current = onKey;
	useEffect(() => {
		setRawMode(true);
		return () => setRawMode(false);
	}, [setRawMode]);
	useEffect(() => {
		const splitter = new KeySplitter();
		let flush: ReturnType<typeof setImmediate> | undefined;
		const deliver = (keys: KeyPress[]) => {
			for (const k of keys) latest.current(k);
		};
		const onData = (data: string | Buffer) => {
			if (flush) clearImmediate(flush);
			flush = undefined;
			deliver(splitter.push(String(data)));
			// An escape sequence still open once this read is handled is a lone Escape (or Alt+[), unless its rest is
			// already waiting to be read: Ink gives a pending Escape the same one turn of the event loop.
			if (splitter.waiting)
				flush = setImmediate(() => {
					flush = undefined;
					deliver(splitter.flush());
				});
		};
		stdin.on("data", onData);
		return () => {
			if (flush) clearImmediate(flush);
			stdin.off("data", onData);
		};
	}, [stdin]);
}
