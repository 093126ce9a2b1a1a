/**
 * Ink keeps what it learns about a line (its styled characters, the width of each character) for one frame only:
 * every frame it tokenizes every line of the screen again, though a keystroke changes one or two of them. This keeps
 * Ink's own per-frame caches for the whole session instead (bounded), so an unchanged line costs a lookup; the
 * explorer's echo frame spent most of its time re-tokenizing unchanged lines (bench: `measure-worker.js tui`).
 * Ink's output module is not exported: it is reached by its file next to Ink's entry point (the same module instance
 * Ink renders with), and when it does not have the expected shape nothing is changed.
 */
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Entries (lines and characters) kept across frames before the caches start over: a few screens' worth. */
const MAX_ENTRIES = 20_000;

interface Caches {
	widths: Map<string, number>;
	blockWidths: Map<string, number>;
	styledChars: Map<string, unknown>;
}
interface OutputLike {
	caches: Caches;
	get(): unknown;
}
type OutputClass = { new (options: { width: number; height: number }): OutputLike; prototype: OutputLike };

let undo: (() => void) | null = null;

/** True when `x` has Ink 6's per-frame caches (three maps), so sharing them keeps Ink's meaning. */
function isCaches(x: unknown): x is Caches {
	const c = x as Partial<Caches> | null;
	return !!c && c.widths instanceof Map && c.blockWidths instanceof Map && c.styledChars instanceof Map;
}

/**
 * Makes Ink's frames share one bounded set of line caches; false (and nothing changed) when Ink's output module is
 * not the shape this expects. Idempotent.
 */
export async function shareFrameCaches(): Promise<boolean> {
	if (undo) return true;
	let Output: OutputClass;
	let probe: OutputLike | null;
	try {
		const entry = fileURLToPath(import.meta.resolve("ink"));
		Output = ((await import(pathToFileURL(join(dirname(entry), "output.js")).href)) as { default: OutputClass }).default;
		probe = typeof Output === "function" ? new Output({ width: 1, height: 1 }) : null;
	} catch {
		return false;
	}
	const original = Output?.prototype?.get;
	if (!probe || !isCaches(probe.caches) || typeof original !== "function") return false;
	const Ctor = probe.caches.constructor as new () => Caches;
	const shared = new Ctor();
	if (!isCaches(shared)) return false;
	Output.prototype.get = function get(this: OutputLike) {
		if (shared.styledChars.size + shared.widths.size + shared.blockWidths.size > MAX_ENTRIES) {
			shared.styledChars.clear();
			shared.widths.clear();
			shared.blockWidths.clear();
		}
		this.caches = shared;
		return original.call(this);
	};
	undo = () => {
		Output.prototype.get = original;
	};
	return true;
}

/** Gives every frame its own caches again, as Ink does (for tests that compare both). */
export function unshareFrameCaches(): void {
	undo?.();
	undo = null;
}
