/**
 * Live view: the explorer watches the session folders and asks for a refresh when pi writes, debounced so a burst
 * of appended lines costs one refresh, naming the session files that changed: a large history's check stats only a
 * sample of its files, and an append to an old session must show at once. Where recursive fs.watch is unavailable
 * (or fails), it polls instead: a refresh with nothing changed is a stat per file.
 */
import { existsSync, type FSWatcher, watch } from "node:fs";
import { join } from "node:path";

/** A running watch; `mode` says which way changes are noticed. */
export interface SessionWatch {
	mode: "watch" | "poll";
	stop(): void;
}

/** Session files named at most per change: past it, `more` asks the refresh to check every file. */
const NAMED = 256;

/**
 * Calls `onChange` (debounced) when anything under `roots` changes, with the session files (`.jsonl`) the watch named
 * and whether more changed than it names; polls every `pollMs` when watching fails (then no file is named).
 */
export function watchSessions(
	roots: string[],
	onChange: (files: string[], more: boolean) => void,
	options: { debounceMs?: number; pollMs?: number; forcePoll?: boolean; named?: number } = {},
): SessionWatch {
	const debounceMs = options.debounceMs ?? 250;
	const most = options.named ?? NAMED;
	let timer: NodeJS.Timeout | undefined;
	let named = new Set<string>();
	let more = false;
	const fire = () => {
		const files = [...named];
		const all = more;
		named = new Set();
		more = false;
		onChange(files, all);
	};
	const changed = (root: string, file: string | null) => {
		if (file?.endsWith(".jsonl")) {
			const path = join(root, file);
			if (named.size < most) named.add(path);
			else if (!named.has(path)) more = true;
		}
		clearTimeout(timer);
		timer = setTimeout(fire, debounceMs);
	};
	const watchers: FSWatcher[] = [];
	let poll: NodeJS.Timeout | undefined;
	const startPolling = () => {
		for (const w of watchers.splice(0)) w.close();
		poll ??= setInterval(() => onChange([], false), options.pollMs ?? 2000);
		poll.unref();
	};
	try {
		if (options.forcePoll) throw new Error("polling asked for");
		for (const root of roots.filter((r) => existsSync(r))) {
			const w = watch(root, { recursive: true, persistent: false }, (_event, file) => changed(root, file));
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
