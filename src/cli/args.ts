/**
 * Checks the command line before meow parses it: meow ignores a value flag whose value is missing (so `status --index`
 * would fall back to the default index) and throws a stack trace on a repeated single-value flag. Both are usage errors.
 */
import { ArgumentError } from "../shared/errors.js";

/** The part of a meow flag definition this check needs. */
export interface FlagSpec {
	type: "string" | "number" | "boolean";
	isMultiple?: boolean;
}

function kebab(name: string): string {
	return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Throws an ArgumentError (one line, exit 2) for a value flag without its value or a single-value flag given twice. */
export function checkArgs(argv: string[], spec: Record<string, FlagSpec>): void {
	const valued = new Map<string, FlagSpec>();
	for (const [name, s] of Object.entries(spec)) if (s.type !== "boolean") valued.set(kebab(name), s);
	const seen = new Set<string>();
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] as string;
		if (arg === "--") break;
		if (!arg.startsWith("--")) continue;
		const eq = arg.indexOf("=");
		const name = arg.slice(2, eq === -1 ? undefined : eq);
		const s = valued.get(name);
		if (!s) continue;
		let value: string | undefined;
		if (eq !== -1) value = arg.slice(eq + 1);
		else {
			const next = argv[i + 1];
			// A following option is not a value (a lone "-" or a negative number is).
			value = next === undefined || (next.startsWith("--") && next.length > 2) ? undefined : next;
			if (value !== undefined) i++;
		}
		if (value === undefined || value === "") throw new ArgumentError(`--${name} needs a value`);
		if (!s.isMultiple && seen.has(name)) throw new ArgumentError(`--${name} was given more than once; give it once`);
		seen.add(name);
	}
}
