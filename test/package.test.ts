/**
 * The package as a user gets it: `npm pack` of this checkout, installed into a temp project, its `pi-history` bin run
 * on the bundled demo history (`search --demo --json`, and the explorer once in a real terminal), and every module
 * the bin and the Pi extension entry load present in the tarball.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, normalize } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryFile } from "../extension/load.js";
import { importsOf } from "./helpers/architecture.js";
import { loadManifest, PROJECT_ROOT } from "./helpers/corpus.js";
import { hasTmux, killServer, shellQuote, TmuxSession } from "./helpers/tmux.js";

// dist/ is brought up to date by vitest's globalSetup (test/support/global-setup.ts); npm pack ships it as it is.
interface Packed {
	tarball: string;
	files: string[];
}

type LockEntry = Record<string, unknown> & { dev?: boolean; devOptional?: boolean };

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as {
	name: string;
	version: string;
	bin: Record<string, string>;
	pi: { extensions: string[] };
	dependencies: Record<string, string>;
};

/** The CLI's bundle entry, which the bin's main.cjs imports when the build made it. */
const BUNDLE = "dist/src/pack/run.js";

let packDir = "";
let packed: Packed;
let project = "";

function pack(): Packed {
	packDir = mkdtempSync(join(tmpdir(), "pes-pack-"));
	const out = execFileSync("npm", ["pack", "--json", "--pack-destination", packDir], {
		cwd: PROJECT_ROOT,
		encoding: "utf8",
		stdio: ["ignore", "pipe", "pipe"],
	});
	const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
	if (!info) throw new Error(`npm pack printed no result: ${out}`);
	return { tarball: join(packDir, info.filename), files: info.files.map((f) => f.path) };
}

/**
 * A temp project with the tarball installed, cached under the temp dir by the tarball's hash. npm's cache holds the
 * dependencies' tarballs but not their registry metadata, so a plain `npm install --offline <tgz>` cannot resolve
 * them: the project gets a lockfile naming exactly the versions this checkout's own lockfile resolved for our
 * runtime dependencies, and `npm ci --offline` installs from the cache alone. Install scripts are skipped (building
 * better-sqlite3 from source takes minutes); the checkout's own compiled better-sqlite3 binding is copied in instead.
 */
function install(tarball: string): string {
	const bytes = readFileSync(tarball);
	const hash = createHash("sha256").update(bytes).digest("hex");
	const dir = join(tmpdir(), `pes-pack-install-${hash.slice(0, 16)}`);
	const bin = join(dir, "node_modules", ".bin", "pi-history");
	pruneInstalls(dir);
	if (existsSync(bin)) {
		utimesSync(dir, new Date(), new Date());
		return dir;
	}
	const work = `${dir}.tmp-${process.pid}`;
	rmSync(work, { recursive: true, force: true });
	mkdirSync(work, { recursive: true });
	const local = join(work, "package.tgz");
	cpSync(tarball, local);
	const spec = "file:package.tgz";
	const ours = JSON.parse(readFileSync(join(PROJECT_ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
	const packages: Record<string, LockEntry> = {
		"": { name: "pes-pack-probe", dependencies: { [pkg.name]: spec } },
		[`node_modules/${pkg.name}`]: {
			version: pkg.version,
			resolved: spec,
			integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
			dependencies: pkg.dependencies,
			bin: pkg.bin,
		},
	};
	// The runtime closure: every package of our lockfile that is not only there for development.
	for (const [path, entry] of Object.entries(ours.packages)) if (path !== "" && !entry.dev && !entry.devOptional) packages[path] = entry;
	writeFileSync(join(work, "package.json"), JSON.stringify({ name: "pes-pack-probe", private: true, dependencies: { [pkg.name]: spec } }));
	writeFileSync(join(work, "package-lock.json"), JSON.stringify({ name: "pes-pack-probe", lockfileVersion: 3, requires: true, packages }));
	const npm = spawnSync("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: work, encoding: "utf8" });
	if (npm.status !== 0) throw new Error(`npm ci failed:\n${npm.stdout}${npm.stderr}`);
	const sqlite = (root: string) => join(root, "node_modules", "better-sqlite3");
	const version = (root: string) => (JSON.parse(readFileSync(join(sqlite(root), "package.json"), "utf8")) as { version: string }).version;
	expect(version(work)).toBe(version(PROJECT_ROOT));
	cpSync(join(sqlite(PROJECT_ROOT), "build"), join(sqlite(work), "build"), { recursive: true });
	rmSync(dir, { recursive: true, force: true });
	renameSync(work, dir);
	return dir;
}

/** Each install is ~60 MB: drop the ones of other tarballs that no run (of any checkout) used in the last hour. */
function pruneInstalls(keep: string): void {
	const base = dirname(keep);
	for (const name of readdirSync(base)) {
		const dir = join(base, name);
		if (!/^pes-pack-install-[0-9a-f]{16}$/.test(name) || dir === keep) continue;
		try {
			if (Date.now() - statSync(dir).mtimeMs > 3_600_000) rmSync(dir, { recursive: true, force: true });
		} catch {
			// another run removed it
		}
	}
}

/** Relative modules reachable from `entry` (a path inside the package), as package paths. */
function reachable(entry: string, files: Set<string>): { seen: string[]; missing: string[] } {
	const seen: string[] = [];
	const missing: string[] = [];
	const queue = [entry];
	while (queue.length > 0) {
		const file = queue.pop() as string;
		if (seen.includes(file)) continue;
		seen.push(file);
		for (const spec of importsOf(readFileSync(join(PROJECT_ROOT, file), "utf8")).filter((s) => s.startsWith("."))) {
			const target = normalize(join(dirname(file), spec))
				.split("\\")
				.join("/");
			// The TypeScript entry imports its siblings by their .js names (jiti maps them to .ts).
			const candidates = /\.[cm]?js$/.test(file) ? [target] : [target.replace(/\.js$/, ".ts"), target.replace(/\.js$/, ".tsx")];
			const found = candidates.find((c) => files.has(c));
			if (found) queue.push(found);
			else missing.push(`${file} → ${spec}`);
		}
	}
	return { seen, missing };
}

beforeAll(() => {
	packed = pack();
	project = install(packed.tarball);
});

afterAll(() => {
	killServer();
	rmSync(packDir, { recursive: true, force: true });
});

describe("the packed package", () => {
	it("holds the demo history, the built CLI and the extension with everything they load", () => {
		const files = new Set(packed.files);
		// The history `--demo` opens (findDemoHistory looks for fixtures/{demo,corpus}/sessions next to the package).
		const sessions = loadManifest().files.filter((f) => f.isSession);
		for (const f of sessions) expect(files, f.file).toContain(`fixtures/corpus/${f.file}`);
		for (const bin of Object.values(pkg.bin)) {
			const entry = bin.replace(/^\.\//, "");
			expect(files).toContain(entry);
			const { seen, missing } = reachable(entry, files);
			expect(missing).toEqual([]);
			expect(seen).toContain("dist/components/ink/App.js");
		}
		// session_search's entry is off by default (pi loads every listed entry of an installed package), yet ships
		// whole for `pi -e <package>/extension/session-search.ts`.
		const sessionSearchEntry = "extension/session-search.ts";
		expect(pkg.pi.extensions.map((e) => e.replace(/^\.\//, ""))).not.toContain(sessionSearchEntry);
		for (const extension of [...pkg.pi.extensions, sessionSearchEntry]) {
			const entry = extension.replace(/^\.\//, "");
			expect(files).toContain(entry);
			expect(reachable(entry, files).missing).toEqual([]);
			// The entry loads the built module (extension/load.ts), or its source when the build is older: both ship whole.
			const name = basename(entry, ".ts");
			for (const target of [`dist/src/extension/${name}.js`, `src/extension/${name}.ts`]) {
				expect(files).toContain(target);
				expect(reachable(target, files).missing).toEqual([]);
			}
		}
		// The bundle the bin starts from (build/bundle.ts) ships with every chunk it loads.
		expect(files).toContain(BUNDLE);
		expect(reachable(BUNDLE, files).missing).toEqual([]);
		// No stale build output ships: every packed module of dist/ has its source in this checkout (the bundle's
		// chunks are made from those modules).
		const orphans = [...files]
			.filter((f) => /^dist\/.*\.js$/.test(f) && !f.startsWith("dist/src/pack/"))
			.filter((f) => !existsSync(join(PROJECT_ROOT, f.replace(/^dist\//, "").replace(/\.js$/, ".ts"))))
			.filter((f) => !existsSync(join(PROJECT_ROOT, f.replace(/^dist\//, "").replace(/\.js$/, ".tsx"))));
		expect(orphans).toEqual([]);
		// Nothing of the test suite or the bench ships.
		expect([...files].filter((f) => /^(test|bench|dist\/test|dist\/bench)\//.test(f))).toEqual([]);
	});

	it("has pi load the built extension once installed, not its TypeScript (npm unpacks every file with one time)", () => {
		const installed = join(project, "node_modules", pkg.name);
		for (const name of ["index", "session-search"]) expect(entryFile(name, installed)).toBe(join(installed, "dist", "src", "extension", `${name}.js`));
	});

	it("answers `pi-history search --demo --json` with the demo's needle where the manifest planted it", () => {
		const needle = loadManifest().needles.find((n) => n.expect === "found" && n.script === "ascii" && n.plantedAs.startsWith("user.text"));
		if (!needle) throw new Error("the manifest has no ascii user.text needle");
		const r = spawnSync(join(project, "node_modules", ".bin", "pi-history"), ["search", "--demo", "--json", "--limit", "50", `"${needle.text}"`], {
			cwd: project,
			encoding: "utf8",
			env: { ...process.env, HOME: project },
		});
		expect(r.stderr).not.toMatch(/error|not part of this installation/i);
		expect(r.status).toBe(0);
		const hits = (JSON.parse(r.stdout) as { hits: Array<{ sessionId: string; entryId: string }> }).hits.map((h) => `${h.sessionId}/${h.entryId}`);
		const planted = needle.occurrences.filter((o) => o.searchable).map((o) => `${o.sessionId}/${o.entryId}`);
		expect(planted.length).toBeGreaterThan(0);
		for (const ref of planted) expect(hits).toContain(ref);
	});

	// The quick start's command: `pi-history` with no arguments, on a machine without Pi sessions, opens the demo.
	it.skipIf(!hasTmux)("opens the demo in the explorer when run with no arguments and no Pi history, and Esc at the top quits with 0", async () => {
		const bin = join(project, "node_modules", ".bin", "pi-history");
		const cmd = `printf '__SHELL__\\n'; env -u CI -u PI_CODING_AGENT_DIR -u PI_CODING_AGENT_SESSION_DIR -u PI_EVENT_SEARCH_INDEX HOME=${shellQuote(project)} ${shellQuote(bin)}; echo __EXIT__=$?; sleep 30`;
		const session = TmuxSession.start(cmd, { columns: 100, rows: 30 }, project);
		try {
			// The recent events listed: the notice of the demo may still take the status bar's two lines (a key clears it),
			// so the hit count shows there only in the frame drawn before the explorer's own, if the poll catches it.
			await session.waitFor((x) => x.includes("DEMO history") && /\d recent events/.test(x), 15_000);
			// To the hit list and back (q there is text, not a command), then Esc on the empty query line quits.
			session.keys("Tab");
			await session.waitFor("hits · hit 1", 15_000);
			session.keys("Escape");
			await session.waitFor((x) => x.includes("query · hit 1 of"), 15_000);
			session.keys("Escape");
			await session.waitFor("__EXIT__=0", 15_000);
		} finally {
			session.kill();
		}
	});
});
