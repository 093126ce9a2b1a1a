/**
 * Module hooks for bench/frame-cost.ts: Ink's imports of string-width, @alcalzone/ansi-tokenize and its own Output
 * resolve to the stand-ins the CLI bundle puts there (build/stand-ins.ts, compiled beside it), under the same rule as the bundle's plugin: only where the
 * import resolves to the very copy the stand-in wraps, and never for the stand-in's own import.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { moduleStandIn, standIns } from "../build/stand-ins.js";

/** Compiled, this file is dist/bench/frame-cost-hooks.js: the stand-ins are in dist/build/. */
const DIST = fileURLToPath(new URL("..", import.meta.url));
const STAND_INS = standIns(DIST);

type Resolved = { url: string; shortCircuit?: boolean };
type Next = (specifier: string, context: { parentURL?: string | undefined }) => Promise<Resolved>;

/** Node's resolve hook (module.register). */
export async function resolve(specifier: string, context: { parentURL?: string | undefined }, next: Next): Promise<Resolved> {
	if (specifier === "./output.js" && context.parentURL) {
		const resolved = await next(specifier, context);
		const standIn = moduleStandIn(DIST, fileURLToPath(resolved.url));
		return standIn ? { url: pathToFileURL(standIn).href, shortCircuit: true } : resolved;
	}
	const standIn = STAND_INS[specifier];
	const standInUrl = standIn ? pathToFileURL(standIn).href : undefined;
	if (!standInUrl || !context.parentURL || context.parentURL === standInUrl) return next(specifier, context);
	const [wanted, wrapped] = await Promise.all([next(specifier, context), next(specifier, { ...context, parentURL: standInUrl })]);
	return wanted.url === wrapped.url ? { url: standInUrl, shortCircuit: true } : wanted;
}
