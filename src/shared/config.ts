/** Where things live: pi's agent dir, the session directories to index, our config file and the index path. */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/** A directory that holds session files, and why it is indexed. */
export interface SourceRoot {
	path: string;
	/** default: `<agentDir>/sessions`; custom: pi's flat sessionDir; extra: our config or --sessions-dir. */
	kind: "default" | "custom" | "extra";
}

/** Our own optional config file, `<agentDir>/pi-event-search/config.json`. */
export interface FileConfig {
	sessionDirs?: string[];
	index?: string;
	workspaceRoot?: string;
	/** Also register the `session_search` tool (seed 003's contract) from the main extension entry. */
	sessionSearchTool?: boolean;
	/** pi keys that open the explorer and prompt recall over pi's screen (pi-tui key ids; "" turns one off). */
	piShortcuts?: { history?: string; prompts?: string };
	/** Register our tools as `deferred` (pi ≥ 1.6): out of every prompt, found only through pi's `tool_search`. */
	deferTools?: boolean;
}

/** Keys pi 1.6's default keybindings leave free, for `/history` and `/history-prompts`. */
export const DEFAULT_PI_SHORTCUTS = { history: "alt+h", prompts: "alt+r" } as const;

/** Everything a face needs to know about locations, resolved once. */
export interface ResolvedConfig {
	agentDir: string;
	roots: SourceRoot[];
	/**
	 * The session dirs this agent dir names whatever the cwd, the environment and the flags (its own sessions folder,
	 * an absolute global sessionDir, our config's sessionDirs): a root the index holds for this agent dir and that is
	 * none of these, nor in `roots`, is no longer configured (root-owners.ts).
	 */
	agentRoots: string[];
	indexPath: string;
	/** True when the index is at our own default location: a file there that is not a usable index is ours to move aside (I22). */
	indexIsDefault: boolean;
	configFile: string;
	workspaceRoot?: string;
	/** `"sessionSearchTool": true` in our config file: the main extension also offers `session_search`. */
	sessionSearchTool: boolean;
	/** The shortcuts of the in-pi explorer and prompt recall (null: none). */
	piShortcuts: { history: string | null; prompts: string | null };
	/** `"deferTools": true` in our config file: the tools are registered with pi 1.6's `deferred` exposure. */
	deferTools: boolean;
	notes: string[];
}

/** Inputs that decide the locations; tests pass their own env and home. */
export interface ConfigInput {
	env?: NodeJS.ProcessEnv;
	home?: string;
	cwd?: string;
	/** Explicit session dirs (`--sessions-dir`): when given, only these are indexed. */
	sessionsDirs?: string[];
	indexPath?: string;
}

/** Expands a leading `~` the way pi does. */
export function expandHome(p: string, home: string): string {
	if (p === "~") return home;
	if (p.startsWith("~/")) return join(home, p.slice(2));
	return p;
}

/** Pi's agent dir: `$PI_CODING_AGENT_DIR` or `~/.pi/agent`. */
export function agentDirOf(env: NodeJS.ProcessEnv, home: string): string {
	const fromEnv = env.PI_CODING_AGENT_DIR;
	return fromEnv?.trim() ? resolve(expandHome(fromEnv.trim(), home)) : join(home, ".pi", "agent");
}

function readJson(file: string, notes: string[]): Record<string, unknown> | undefined {
	if (!existsSync(file)) return undefined;
	try {
		const value: unknown = JSON.parse(readFileSync(file, "utf8"));
		if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
		notes.push(`${file}: not a JSON object, ignored`);
	} catch (error) {
		notes.push(`${file}: ${(error as Error).message}, ignored`);
	}
	return undefined;
}

function stringList(value: unknown): string[] {
	if (typeof value === "string") return [value];
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.length > 0) : [];
}

/** Resolves the agent dir, session roots, index path and workspace root (DESIGN §4). */
export function resolveConfig(input: ConfigInput = {}): ResolvedConfig {
	const env = input.env ?? process.env;
	const home = input.home ?? homedir();
	const cwd = input.cwd ?? process.cwd();
	const notes: string[] = [];
	const agentDir = agentDirOf(env, home);
	const configFile = join(agentDir, "pi-event-search", "config.json");
	const fileConfig = readJson(configFile, notes) ?? {};
	const abs = (p: string, base: string) => resolve(base, expandHome(p, home));

	const roots: SourceRoot[] = [];
	const globalSettings = readJson(join(agentDir, "settings.json"), input.sessionsDirs?.length ? [] : notes);
	const globalDir = typeof globalSettings?.sessionDir === "string" ? expandHome(globalSettings.sessionDir.trim(), home) : "";
	const agentRoots = [join(agentDir, "sessions")];
	// A relative global sessionDir is resolved against the cwd, as pi does: it names another folder in another cwd.
	if (isAbsolute(globalDir)) agentRoots.push(resolve(globalDir));
	for (const dir of stringList(fileConfig.sessionDirs)) agentRoots.push(abs(dir, agentDir));
	const add = (path: string, kind: SourceRoot["kind"]) => {
		if (!roots.some((r) => r.path === path)) roots.push({ path, kind });
	};
	if (input.sessionsDirs && input.sessionsDirs.length > 0) {
		for (const dir of input.sessionsDirs) add(abs(dir, cwd), "extra");
	} else {
		add(join(agentDir, "sessions"), "default");
		// pi's own precedence: env, then project settings deep-merged over global settings.
		const envDir = env.PI_CODING_AGENT_SESSION_DIR?.trim();
		if (envDir) add(abs(envDir, cwd), "custom");
		const projectSettings = readJson(join(cwd, ".pi", "settings.json"), notes);
		const settingsDir = projectSettings?.sessionDir ?? globalSettings?.sessionDir;
		if (typeof settingsDir === "string" && settingsDir.trim()) add(abs(settingsDir.trim(), cwd), "custom");
		for (const dir of stringList(fileConfig.sessionDirs)) add(abs(dir, agentDir), "extra");
	}

	const configuredIndex = typeof fileConfig.index === "string" ? abs(fileConfig.index, agentDir) : undefined;
	const envIndex = env.PI_EVENT_SEARCH_INDEX?.trim();
	const defaultIndex = join(agentDir, "pi-event-search", "index.sqlite");
	const indexPath = input.indexPath ? abs(input.indexPath, cwd) : envIndex ? abs(envIndex, cwd) : (configuredIndex ?? defaultIndex);

	let workspaceRoot: string | undefined;
	if (typeof fileConfig.workspaceRoot === "string" && fileConfig.workspaceRoot) {
		const expanded = expandHome(fileConfig.workspaceRoot, home);
		if (isAbsolute(expanded)) workspaceRoot = expanded;
		else notes.push(`${configFile}: workspaceRoot must be an absolute path, ignored`);
	}
	let sessionSearchTool = false;
	if (fileConfig.sessionSearchTool !== undefined) {
		if (typeof fileConfig.sessionSearchTool === "boolean") sessionSearchTool = fileConfig.sessionSearchTool;
		else notes.push(`${configFile}: sessionSearchTool must be true or false, ignored`);
	}
	const piShortcuts: ResolvedConfig["piShortcuts"] = { ...DEFAULT_PI_SHORTCUTS };
	const keys = fileConfig.piShortcuts;
	if (keys && typeof keys === "object" && !Array.isArray(keys)) {
		for (const name of ["history", "prompts"] as const) {
			const v = (keys as Record<string, unknown>)[name];
			if (typeof v === "string") piShortcuts[name] = v.trim() || null;
			else if (v !== undefined) notes.push(`${configFile}: piShortcuts.${name} must be a key such as "alt+h", ignored`);
		}
	} else if (keys !== undefined) notes.push(`${configFile}: piShortcuts must be an object such as {"history": "alt+h"}, ignored`);
	let deferTools = false;
	if (fileConfig.deferTools !== undefined) {
		if (typeof fileConfig.deferTools === "boolean") deferTools = fileConfig.deferTools;
		else notes.push(`${configFile}: deferTools must be true or false, ignored`);
	}
	return {
		agentDir,
		roots,
		agentRoots: [...new Set(agentRoots)],
		indexPath,
		indexIsDefault: indexPath === defaultIndex,
		configFile,
		workspaceRoot,
		sessionSearchTool,
		piShortcuts,
		deferTools,
		notes,
	};
}
