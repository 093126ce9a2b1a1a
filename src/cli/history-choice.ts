/**
 * Which history the explorer (and `--demo` commands) open: the user's, or the bundled demo when there is none. Kept
 * apart from the explorer so the CLI can choose without loading React and Ink.
 */
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Filters } from "../../components/core/filters.js";
import { hasSessionFiles } from "../service/session-files.js";
import { type ResolvedConfig, resolveConfig } from "../shared/config.js";
import type { EventRef } from "../shared/types.js";

/** Options of the interactive explorer. */
export interface TuiOptions {
	demo: boolean;
	sessionsDirs?: string[];
	indexPath?: string;
	workspace?: string;
	color: boolean;
	/** The query and filters the explorer starts with (from the command line). */
	query?: string;
	filters?: Filters;
	/** Mouse reporting for the wheel (default on where the terminal supports it; --no-mouse turns it off). */
	mouse?: boolean;
	/** The event to start on (`pi-history open`), with the fragment the ref named. */
	open?: EventRef & { fragmentId?: string };
}

/** The history the explorer opens, and the banner that says which. */
export interface HistoryChoice {
	config: ResolvedConfig;
	banner: string | null;
	/** Said once in the status bar at start (why this history). */
	notice?: string;
	demo: boolean;
}

/** The bundled demo history: fixtures/demo when packaged that way, else the fixture corpus of a checkout. */
export function findDemoHistory(from: string = dirname(fileURLToPath(import.meta.url))): string | null {
	let dir = from;
	for (let i = 0; i < 5; i++) {
		for (const name of ["demo", "corpus"]) {
			const candidate = join(dir, "fixtures", name);
			if (existsSync(join(candidate, "sessions"))) return candidate;
		}
		const up = dirname(dir);
		if (up === dir) break;
		dir = up;
	}
	return null;
}

/**
 * Eight hex digits that tell demo locations apart (32-bit FNV-1a of the path). Not node:crypto: loading it cost
 * ~7 ms of the first frame, and nothing here needs a cryptographic hash.
 */
export function pathTag(path: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
	return (h >>> 0).toString(16).padStart(8, "0");
}

/**
 * The user's history when it has session files; the demo when it has none or `--demo` forces it. The demo index
 * lives in the temp dir (never in ~/.pi), one per demo location so two checkouts do not rebuild each other's.
 * An explicit --sessions-dir is never swapped for the demo: an empty dir there gets the "no sessions" screen.
 */
export function chooseHistory(options: TuiOptions, env: NodeJS.ProcessEnv = process.env): HistoryChoice {
	const config = resolveConfig({ sessionsDirs: options.sessionsDirs, indexPath: options.indexPath, env });
	const explicit = (options.sessionsDirs?.length ?? 0) > 0;
	if (!options.demo && (explicit || hasSessionFiles(config))) return { config, banner: null, demo: false };
	const demo = findDemoHistory();
	if (!demo) {
		if (options.demo) throw new Error("the demo history is not part of this installation");
		return { config, banner: null, demo: false };
	}
	const tag = pathTag(demo);
	const demoConfig = resolveConfig({ sessionsDirs: [demo], indexPath: join(tmpdir(), `pi-event-search-demo-${tag}`, "index.sqlite"), env });
	const roots = config.roots.map((r) => r.path).join(", ");
	const notice = options.demo
		? "demo: the bundled sample history (--demo)"
		: `no Pi sessions under ${roots}: exploring the bundled demo history (--demo forces it)`;
	return { config: demoConfig, banner: "DEMO history", notice, demo: true };
}
