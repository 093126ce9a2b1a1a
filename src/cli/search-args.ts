/**
 * The command line of `search` read by hand (search-fast.ts; main.cts reads its --index from it too): only a plain one is
 * taken. Anything this does not know for certain (help, version, a short flag, `--`, a repeated or misspelt flag, a
 * value that looks like a flag, a number meow would read otherwise) is left to commands.ts, which parses it as always.
 */
import type { SearchFlags } from "./search-command.js";

type Kind = "string" | "strings" | "boolean" | "number";

/** The flags of `search` in their command-line spelling, with the name and type meow gives them. */
const FLAGS: Record<string, [keyof SearchFlags, Kind]> = {
	"sessions-dir": ["sessionsDir", "strings"],
	index: ["index", "string"],
	workspace: ["workspace", "string"],
	json: ["json", "boolean"],
	color: ["color", "boolean"],
	refresh: ["refresh", "boolean"],
	limit: ["limit", "number"],
	"snippet-chars": ["snippetChars", "number"],
	session: ["session", "strings"],
	cwd: ["cwd", "strings"],
	kind: ["kind", "strings"],
	type: ["type", "strings"],
	role: ["role", "strings"],
	tool: ["tool", "strings"],
	after: ["after", "string"],
	before: ["before", "string"],
	error: ["error", "boolean"],
	branch: ["branch", "strings"],
	selection: ["selection", "strings"],
	file: ["file", "strings"],
	label: ["label", "strings"],
	order: ["order", "string"],
};

/** A word meow's parser could read as a number (and print differently): left to it. */
const NUMERIC = /^[-+]?(\d|\.\d)[\d.eE+-]*$|^0[xX]/;

/** The flags and query words of `search`'s arguments, or null when the command line is not one this path takes. */
export function parseSearchArgs(argv: readonly string[]): { flags: SearchFlags; words: string[] } | null {
	const flags: Record<string, unknown> = {};
	const seen = new Set<string>();
	const words: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] as string;
		if (!arg.startsWith("-")) {
			if (NUMERIC.test(arg)) return null;
			words.push(arg);
			continue;
		}
		if (!arg.startsWith("--") || arg === "--") return null;
		const eq = arg.indexOf("=");
		let name = arg.slice(2, eq === -1 ? undefined : eq);
		let negated = false;
		if (!FLAGS[name] && name.startsWith("no-")) {
			name = name.slice(3);
			negated = true;
		}
		const spec = FLAGS[name];
		if (!spec) return null;
		const [key, kind] = spec;
		// A repeated single-value flag is a usage error meow's path words: leave it to it.
		if (kind !== "strings" && seen.has(name)) return null;
		seen.add(name);
		if (kind === "boolean") {
			if (eq !== -1) return null;
			flags[key] = !negated;
			continue;
		}
		if (negated) return null;
		let value: string | undefined;
		if (eq !== -1) value = arg.slice(eq + 1);
		else value = argv[++i];
		if (value === undefined || value === "" || value.startsWith("-")) return null;
		if (kind === "number") {
			if (!/^\d{1,9}$/.test(value)) return null;
			flags[key] = Number(value);
		} else if (kind === "string") flags[key] = value;
		else flags[key] = [...((flags[key] as string[] | undefined) ?? []), value];
	}
	return { flags: flags as SearchFlags, words };
}
