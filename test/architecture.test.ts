/**
 * The one-way flow of DESIGN §3, checked on what the compiler reads (test/helpers/architecture.ts): layer order,
 * SQL only in src/index, faces through the service facade, components never below it, no dist/ paths, one default
 * export, Pi packages only in the extension, ink/react only in the TUI; inside components/, core below features below
 * root, features apart, slices and views pure, Ink only in its host, no cycle. The fixture tree plants one violation of
 * each rule, in a file named after it, to prove every rule can fail.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkArchitecture, importsOf, RULES } from "./helpers/architecture.js";
import { PROJECT_ROOT } from "./helpers/corpus.js";

const FIXTURE = join(PROJECT_ROOT, "test", "fixtures", "architecture-violations");
const ruleOfFile = (file: string) => file.replace(/^.*\//, "").replace(/\.tsx?$/, "");

describe("architecture", () => {
	it("holds on the tree: no module in src/ or components/ breaks a rule", () => {
		const { files, violations } = checkArchitecture(PROJECT_ROOT);
		// The checker saw the tree, every layer of it.
		for (const f of ["src/shared/types.ts", "src/source/parse.ts", "src/project/entry.ts", "src/index/store.ts", "src/query/search.ts"]) {
			expect(files).toContain(f);
		}
		for (const f of [
			"src/service/service.ts",
			"src/present/text.ts",
			"src/cli/main.cts",
			"src/cli/commands.ts",
			"src/extension/index.ts",
			"components/ink/App.tsx",
		]) {
			expect(files).toContain(f);
		}
		expect(violations).toEqual([]);
	});

	it("sees inside components/: every folder of it, and no import cycle", () => {
		const { files } = checkArchitecture(PROJECT_ROOT);
		for (const folder of ["core", "search", "event", "tree", "browser", "filters", "prompts", "root", "ink"])
			expect(files.some((f) => f.startsWith(`components/${folder}/`))).toBe(true);
		expect(files.filter((f) => /^components\/[^/]+$/.test(f))).toEqual([]);
	});

	it("reports each planted violation, and only those", () => {
		const { files, violations } = checkArchitecture(FIXTURE);
		const planted = files.filter((f) => RULES.some((r) => r.id === ruleOfFile(f)));
		// One planted file per rule.
		expect(planted.map(ruleOfFile).sort()).toEqual(RULES.map((r) => r.id).sort());
		// Each is reported under its own rule, exactly once; the clean files are not reported.
		expect(violations.map((v) => `${v.rule} ${v.file}`).sort()).toEqual(planted.map((f) => `${ruleOfFile(f)} ${f}`).sort());
	});

	it("catches a single-quoted import of the index from a component", () => {
		const { violations } = checkArchitecture(FIXTURE);
		expect(violations).toContainEqual({ rule: "component-imports", file: "components/ink/component-imports.tsx", detail: "imports ../../src/index/store.js" });
	});

	it("finds a cycle of type-only imports, once, on its first module", () => {
		const { violations } = checkArchitecture(FIXTURE);
		expect(violations.filter((v) => v.rule === "no-cycle")).toEqual([
			{
				rule: "no-cycle",
				file: "components/prompts/no-cycle.ts",
				detail: "import cycle: components/prompts/no-cycle.ts → components/prompts/prompt-partner.ts",
			},
		]);
	});

	it("reads every import form: both quotes, import type, side effects, dynamic import, export-from", () => {
		const text = [
			`import { a } from "./double.js";`,
			`import { b } from './single.js';`,
			`import type { C } from "./type-only.js";`,
			`import "./side-effect.js";`,
			`export { d } from "./re-export.js";`,
			`export * from './star.js';`,
			`const e = await import("./dynamic.js");`,
			`// import { f } from "./commented.js";`,
		].join("\n");
		expect(importsOf(text).sort()).toEqual(
			["./double.js", "./single.js", "./type-only.js", "./side-effect.js", "./re-export.js", "./star.js", "./dynamic.js"].sort(),
		);
	});
});
