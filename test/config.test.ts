import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../src/shared/config.js";
import { tempDir } from "./helpers/corpus.js";

let tmp: ReturnType<typeof tempDir>;
let home: string;
beforeAll(() => {
	tmp = tempDir();
	home = join(tmp.dir, "home");
	mkdirSync(join(home, ".pi", "agent", "pi-event-search"), { recursive: true });
	mkdirSync(join(tmp.dir, "proj", ".pi"), { recursive: true });
});
afterAll(() => tmp.cleanup());

const roots = (c: ReturnType<typeof resolveConfig>) => c.roots.map((r) => [r.kind, r.path]);

describe("resolveConfig: where sessions and the index live", () => {
	it("defaults to ~/.pi/agent: its sessions folder and the index beside it", () => {
		const c = resolveConfig({ env: {}, home, cwd: tmp.dir });
		expect(c.agentDir).toBe(join(home, ".pi", "agent"));
		expect(roots(c)).toEqual([["default", join(home, ".pi", "agent", "sessions")]]);
		expect(c.indexPath).toBe(join(home, ".pi", "agent", "pi-event-search", "index.sqlite"));
	});

	it("honors PI_CODING_AGENT_DIR (with ~) and PI_CODING_AGENT_SESSION_DIR", () => {
		const c = resolveConfig({ env: { PI_CODING_AGENT_DIR: "~/alt", PI_CODING_AGENT_SESSION_DIR: "~/flat" }, home, cwd: tmp.dir });
		expect(c.agentDir).toBe(join(home, "alt"));
		expect(roots(c)).toEqual([
			["default", join(home, "alt", "sessions")],
			["custom", join(home, "flat")],
		]);
	});

	it("reads pi's sessionDir setting, the project's over the global one", () => {
		writeFileSync(join(home, ".pi", "agent", "settings.json"), JSON.stringify({ sessionDir: "~/global-sessions" }));
		expect(roots(resolveConfig({ env: {}, home, cwd: tmp.dir }))[1]).toEqual(["custom", join(home, "global-sessions")]);
		writeFileSync(join(tmp.dir, "proj", ".pi", "settings.json"), JSON.stringify({ sessionDir: "project-sessions" }));
		expect(roots(resolveConfig({ env: {}, home, cwd: join(tmp.dir, "proj") }))[1]).toEqual(["custom", join(tmp.dir, "proj", "project-sessions")]);
	});

	it("adds our config file's archive dirs and takes its index path and workspace root", () => {
		writeFileSync(
			join(home, ".pi", "agent", "pi-event-search", "config.json"),
			JSON.stringify({ sessionDirs: ["~/archive", "old"], index: "~/cache/index.sqlite", workspaceRoot: "/work/mono" }),
		);
		const c = resolveConfig({ env: {}, home, cwd: tmp.dir });
		expect(roots(c).filter(([kind]) => kind === "extra")).toEqual([
			["extra", join(home, "archive")],
			["extra", join(home, ".pi", "agent", "old")],
		]);
		expect(c.indexPath).toBe(join(home, "cache", "index.sqlite"));
		expect(c.workspaceRoot).toBe("/work/mono");
	});

	it("lets --sessions-dir replace every other session dir, and --index / PI_EVENT_SEARCH_INDEX win for the index", () => {
		const c = resolveConfig({ env: { PI_EVENT_SEARCH_INDEX: "/env/index.sqlite" }, home, cwd: tmp.dir, sessionsDirs: ["a", "/abs/b"] });
		expect(roots(c)).toEqual([
			["extra", join(tmp.dir, "a")],
			["extra", "/abs/b"],
		]);
		expect(c.indexPath).toBe("/env/index.sqlite");
		expect(resolveConfig({ env: { PI_EVENT_SEARCH_INDEX: "/env/index.sqlite" }, home, cwd: tmp.dir, indexPath: "here.sqlite" }).indexPath).toBe(
			join(tmp.dir, "here.sqlite"),
		);
	});

	it("names the dirs the agent dir holds in the index whatever the cwd, environment and flags (agentRoots)", () => {
		const h = join(tmp.dir, "home-roots");
		const agent = join(h, ".pi", "agent");
		mkdirSync(join(agent, "pi-event-search"), { recursive: true });
		writeFileSync(join(agent, "settings.json"), JSON.stringify({ sessionDir: "~/global-sessions" }));
		writeFileSync(join(agent, "pi-event-search", "config.json"), JSON.stringify({ sessionDirs: ["archive"] }));
		const expected = [join(agent, "sessions"), join(h, "global-sessions"), join(agent, "archive")];
		// The project's sessionDir wins in its cwd, yet the global one still serves every other cwd.
		const inProject = resolveConfig({ env: { PI_CODING_AGENT_SESSION_DIR: "/env/flat" }, home: h, cwd: join(tmp.dir, "proj") });
		expect(inProject.agentRoots).toEqual(expected);
		expect(resolveConfig({ env: {}, home: h, cwd: tmp.dir, sessionsDirs: ["/x"] }).agentRoots).toEqual(expected);
		// A relative global sessionDir names another folder in another cwd: not one the agent dir always holds.
		writeFileSync(join(agent, "settings.json"), JSON.stringify({ sessionDir: "rel-sessions" }));
		expect(resolveConfig({ env: {}, home: h, cwd: tmp.dir }).agentRoots).toEqual([join(agent, "sessions"), join(agent, "archive")]);
	});

	it("reports a broken config file and a relative workspace root instead of failing", () => {
		writeFileSync(join(home, ".pi", "agent", "pi-event-search", "config.json"), "{ not json");
		expect(resolveConfig({ env: {}, home, cwd: tmp.dir }).notes.join(" ")).toMatch(/config\.json/);
		writeFileSync(join(home, ".pi", "agent", "pi-event-search", "config.json"), JSON.stringify({ workspaceRoot: "relative/dir" }));
		const c = resolveConfig({ env: {}, home, cwd: tmp.dir });
		expect(c.workspaceRoot).toBeUndefined();
		expect(c.notes.join(" ")).toMatch(/absolute/);
	});

	it.each<[string, unknown, boolean, RegExp | null]>([
		["off when the file does not say", {}, false, null],
		["on with true", { sessionSearchTool: true }, true, null],
		["off with false", { sessionSearchTool: false }, false, null],
		["off, with a note, for anything but a boolean", { sessionSearchTool: "yes" }, false, /sessionSearchTool must be true or false/],
	])("reads sessionSearchTool: %s", (_name, file, expected, note) => {
		writeFileSync(join(home, ".pi", "agent", "pi-event-search", "config.json"), JSON.stringify(file));
		const c = resolveConfig({ env: {}, home, cwd: tmp.dir });
		expect(c.sessionSearchTool).toBe(expected);
		if (note) expect(c.notes.join(" ")).toMatch(note);
	});
});
