/**
 * Live view: the explorer watches the session folders and asks for a refresh when pi writes, debounced so a burst
 * of appended lines costs one refresh. Where recursive fs.watch is unavailable (or fails), it polls instead: a
 * refresh with nothing changed is a stat per file.
 */
import { existsSync, type FSWatcher, watch } from "node:fs";

/** A running watch; `mode` says which way changes are noticed. */
export interface SessionWatch {
	mode: "watch" | "poll";
	stop(): void;
}

/** Calls `onChange` (debounced) when anything under `roots` changes; polls every `pollMs` when watching fails. */
export function watchSessions(
	roots: string[],
	onChange: () => void,
	options: { debounceMs?: number; pollMs?: number; forcePoll?: boolean } = {},
): SessionWatch {
	const debounceMs = options.debounceMs ?? 250;
	let timer: NodeJS.Timeout | undefined;
	const changed = () => {
		clearTimeout(timer);
		timer = setTimeout(onChange, debounceMs);
	};
	const watchers: FSWatcher[] = [];
	let poll: NodeJS.Timeout | undefined;
	const startPolling = () => {
		for (const w of watchers.splice(0)) w.close();
		poll ??= setInterval(onChange, options.pollMs ?? 2000);
		poll.unref();
	};
	try {
		if (options.forcePoll) throw new Error("polling asked for");
		for (const root of roots.filter((r) => existsSync(r))) {
			const w = watch(root, { recursive: true, persistent: false }, changed);
			w.on("error", startPolling);
			watchers.push(w);
		}
		if (watchers.length === 0) startPolling();
	} catch {
		startPolling();
	}
	return {
		get mode() {
			return poll ? ("poll" as const) : ("watch" as const);
		},
		stop: () => {
			clearTimeout(timer);
			clearInterval(poll);
			for (const w of watchers) w.close();
		},
	};
}
