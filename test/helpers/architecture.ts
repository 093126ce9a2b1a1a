/**
 * The architecture of DESIGN §3 as rules over a source tree (src/ and components/ under a root), checked on what the
 * TypeScript compiler reads: imports come from `ts.preProcessFile` (both quote styles, `import type`, dynamic
 * `import()`, `export … from`), string and template literals and default exports from the syntax tree.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import ts from "typescript";

/** One rule: its id (fixtures are named after it) and what it protects. */
export interface Rule {
	id: string;
	description: string;
}

/** Every rule the tree must keep. */
export const RULES: readonly Rule[] = [
	{ id: "layer-folder", description: "every module in src/ lives in a layer folder (shared, source, project, index, query, service, present, cli, extension)" },
	{
		id: "layer-order",
		description: "a module imports only its own layer or earlier ones: shared → source → project → index → query → service → present → faces",
	},
	{ id: "sqlite-import", description: "only src/index imports better-sqlite3" },
	{ id: "sql-text", description: "only src/index holds SQL text in its string and template literals (src/ and components/ alike)" },
	{
		id: "face-imports",
		description:
			"the faces (src/cli, src/extension) import only src/service, src/shared, src/present, their own folder and packages (src/cli and src/extension also render components/)",
	},
	{
		id: "component-imports",
		description: "components/ import only src/shared/types and src/shared/queries, src/present, their own folder and packages: never below the service",
	},
	{ id: "no-dist-path", description: "no module in src/ names a dist/ path: code never runs its own build output" },
	{
		id: "default-export",
		description: "only the Pi extension entries (src/extension/index.ts, and session-search.ts for session_search) have a default export",
	},
	{ id: "pi-packages", description: "Pi packages (@mariozechner/*, @earendil-works/*, typebox) are imported only by src/extension" },
	{ id: "ink-react", description: "ink and react are imported only by components/ and src/cli" },
	{
		id: "reducer-state",
		description:
			"the explorer's reducers (components/*/state.ts, state-core.ts, *-state.ts) read an event document only as its numbers, from the memoized selector the view draws with (event-doc's docMetrics): they never hold a document (no eventDoc, no buildEventDoc)",
	},
	{
		id: "component-folder",
		description: `every module in components/ lives in one of its folders: ${["core", "root", "ink", "pi"].join(", ")} or a feature folder`,
	},
	{
		id: "feature-imports",
		description:
			"inside components/: core imports only core; a feature folder imports only core and itself, never another feature; root imports core and the features, never a host; a host (ink/, pi/) imports all but the other host",
	},
	{ id: "ink-host", description: "only the Ink host (components/ink) imports ink or react: the core, the features and the root run without React" },
	{
		id: "pure-state",
		description:
			"the explorer's slices (*-state.ts, state-core.ts) import no view (*-view, *-lines, help), no key binding (keymap, help, key vocabulary), nothing of root/ or ink/",
	},
	{
		id: "pure-view",
		description:
			"views (*-view.ts, *-lines.ts, root/help.ts) are pure functions to lines: no node: builtin, no load, no reducer's state module, nothing of ink/",
	},
	{ id: "no-cycle", description: "no import cycle among the modules of components/, type-only imports included" },
	{
		id: "private-ink",
		description:
			"no private Ink API: no `internal_*` name, no import of Ink's build files (ink/build/…), no path to them in a literal; the one use left is listed in PRIVATE_INK_KNOWN with its reason",
	},
];

/**
 * Private Ink API still in use, by file and name, each with why it stays (the check fails on any other use, and on an
 * entry here that is no longer used).
 */
export const PRIVATE_INK_KNOWN: Readonly<Record<string, { name: string; why: string }>> = {
	"components/ink/use-keys.ts": {
		name: "internal_eventEmitter",
		why: "the raw input events Ink parsed, before useInput turns a burst into one key; listening to stdin's data events instead changed the go-to prompt's keys under ink-testing-library",
	},
};

/** A broken rule: which, in which file (relative to the root, with /), and what exactly. */
export interface Violation {
	rule: string;
	file: string;
	detail: string;
}

/** The layers in flow order; the three faces share the last rank. */
const LAYERS = ["shared", "source", "project", "index", "query", "service", "present", "faces"] as const;
const FACE_FOLDERS = new Set(["cli", "extension"]);
/** The modules pi loads as extensions (the main entry, and the opt-in session_search entry). */
const EXTENSION_ENTRIES = new Set(["src/extension/index.ts", "src/extension/session-search.ts"]);
const PI_PACKAGE = /^(@mariozechner\/|@earendil-works\/|typebox(\/|$))/;
const INK_REACT = /^(ink|react)(\/|$)|^ink-/;
/** A statement keyword followed by the clause that makes it SQL (so prose such as "select a hit" does not count). */
const SQL =
	/\b(SELECT\b[\s\S]*\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(VIRTUAL\s+)?(TABLE|INDEX|TRIGGER|VIEW)|DROP\s+(TABLE|INDEX)|PRAGMA\s+\w+)\b/;
const DIST_PATH = /(^|[\\/])dist[\\/]|(^|[\\/])\.\.[\\/]dist\b/;
/** The explorer's reducer modules: pure data transforms over the state. */
const REDUCER = /^components\/(?:[\w-]+\/)?(state|state-core|[\w-]+-state)\.ts$/;

/** components/'s folders: the core at the bottom, the features above it, the root that composes them, the Ink host. */
const COMPONENT_CORE = "core";
const FEATURES = new Set(["search", "event", "tree", "browser", "filters", "prompts"]);
/** The hosts that draw the explorer: Ink (pi-history) and pi's own TUI (`/history` inside pi). */
const HOSTS = new Set(["ink", "pi"]);
const COMPONENT_FOLDERS = new Set([COMPONENT_CORE, ...FEATURES, "root", ...HOSTS]);
/** The explorer's slices (the top reducer, root/state.ts, routes keys and may name them). */
const SLICE = /^components\/[\w-]+\/([\w-]+-state|state-core)\.ts$/;
/** Modules that draw: pure functions from state to lines. */
const VIEW = /^components\/[\w-]+\/([\w-]+-view|[\w-]+-lines|help)\.ts$/;
/** Modules that name keys: the binding tables, what help and hints say about them, the key vocabulary. */
const KEYS = /^components\/(root\/(keymap|keymap-[\w-]+|help|binding)|core\/(keys|key-splitter))$/;
/** Modules that ask the service: loaders, task loads, React hooks. */
const LOADS = /^components\/[\w-]+\/(loaders|[\w-]+-loads|use-[\w-]+)$/;

/** The components/ folder of a file (relative path with /), or null outside components/ or directly in it. */
function componentFolder(file: string): string | null {
	const parts = file.split("/");
	return parts[0] === "components" && parts.length > 2 ? (parts[1] as string) : null;
}

/** Whether a components/ folder may import another: the core only itself, a feature the core and itself, the root all but the hosts, a host all but the other host. */
function componentMayImport(from: string, to: string): boolean {
	if (HOSTS.has(from)) return !HOSTS.has(to) || from === to;
	if (from === to || to === COMPONENT_CORE) return true;
	if (from === "root") return FEATURES.has(to);
	return false;
}

/** Where a file (relative path with /) sits: its top folder and layer, or null outside src/ and components/. */
function placeOf(file: string): { folder: string; layer: number | null } | null {
	const parts = file.split("/");
	if (parts[0] === "components") return { folder: "components", layer: LAYERS.indexOf("faces") };
	if (parts[0] !== "src") return null;
	if (parts.length < 3) return { folder: "src", layer: null };
	const folder = parts[1] as string;
	if (FACE_FOLDERS.has(folder)) return { folder, layer: LAYERS.indexOf("faces") };
	const layer = LAYERS.indexOf(folder as (typeof LAYERS)[number]);
	return { folder, layer: layer >= 0 && folder !== "faces" ? layer : null };
}

/** Every module specifier a file's text imports or re-exports (static, type-only, dynamic, export-from). */
export function importsOf(text: string): string[] {
	return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The text of every string and template literal (a template's parts joined, substitutions left out). */
function literalsOf(source: ts.SourceFile): string[] {
	const out: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
		else if (ts.isTemplateExpression(node)) out.push([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(" "));
		ts.forEachChild(node, visit);
	};
	visit(source);
	return out;
}

/** True when the file declares a default export (`export default …` or a declaration marked default). */
function hasDefaultExport(source: ts.SourceFile): boolean {
	return source.statements.some(
		(s) =>
			(ts.isExportAssignment(s) && !s.isExportEquals) ||
			(ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)),
	);
}

/** The `internal_*` names a file uses (Ink's private props and context fields all carry that prefix). */
function internalNames(source: ts.SourceFile): string[] {
	const out = new Set<string>();
	const visit = (node: ts.Node) => {
		if ((ts.isIdentifier(node) || ts.isStringLiteral(node)) && node.text.startsWith("internal_")) out.add(node.text);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return [...out];
}

/** True when the file names the identifier anywhere (an import, a call, a re-export). */
function namesIdentifier(source: ts.SourceFile, name: string): boolean {
	let found = false;
	const visit = (node: ts.Node) => {
		if (ts.isIdentifier(node) && node.text === name) found = true;
		else if (!found) ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

function sourceFiles(root: string, dir: string): string[] {
	let entries: string[];
	try {
		entries = readdirSync(join(root, dir), { recursive: true, encoding: "utf8" });
	} catch {
		return [];
	}
	return entries
		.filter((f) => /\.(ts|tsx|mts|cts)$/.test(f) && !f.endsWith(".d.ts"))
		.map((f) => `${dir}/${f.split(sep).join("/")}`)
		.sort();
}

/** Checks every module under `root`/src and `root`/components against RULES. */
export function checkArchitecture(root: string): { files: string[]; violations: Violation[] } {
	const files = [...sourceFiles(root, "src"), ...sourceFiles(root, "components")];
	const violations: Violation[] = [];
	/** components/ modules and the components/ modules each imports (type-only included), for the cycle check. */
	const componentGraph = new Map<string, string[]>();
	for (const file of files) {
		const place = placeOf(file) as { folder: string; layer: number | null };
		const report = (rule: string, detail: string) => violations.push({ rule, file, detail });
		const text = readFileSync(join(root, file), "utf8");
		const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
		const inSrc = place.folder !== "components";
		if (inSrc && place.layer === null) report("layer-folder", `${file} is not in a layer folder`);
		const folder = componentFolder(file);
		if (!inSrc && (folder === null || !COMPONENT_FOLDERS.has(folder))) report("component-folder", `${file} is not in a components/ folder`);

		for (const spec of importsOf(text)) {
			if (inSrc && DIST_PATH.test(spec)) report("no-dist-path", `imports ${spec}`);
			if (!spec.startsWith(".")) {
				// A package (or node: builtin).
				if (spec === "better-sqlite3" && place.folder !== "index") report("sqlite-import", `imports ${spec}`);
				if (PI_PACKAGE.test(spec) && place.folder !== "extension") report("pi-packages", `imports ${spec}`);
				if (INK_REACT.test(spec) && place.folder !== "components" && place.folder !== "cli") report("ink-react", `imports ${spec}`);
				if (INK_REACT.test(spec) && folder !== null && folder !== "ink") report("ink-host", `imports ${spec}`);
				if (VIEW.test(file) && spec.startsWith("node:")) report("pure-view", `imports ${spec}`);
				continue;
			}
			const target = normalize(join(dirname(file), spec))
				.split(sep)
				.join("/");
			const bare = target.replace(/\.(js|ts|tsx)$/, "");
			const toFolder = componentFolder(target);
			if (!inSrc && bare.startsWith("components/")) {
				const resolved = [`${bare}.ts`, `${bare}.tsx`].find((f) => files.includes(f));
				if (resolved) componentGraph.set(file, [...(componentGraph.get(file) ?? []), resolved]);
			}
			if (folder !== null && toFolder !== null) {
				if (COMPONENT_FOLDERS.has(folder) && COMPONENT_FOLDERS.has(toFolder) && !componentMayImport(folder, toFolder))
					report("feature-imports", `${folder}/ imports ${spec} (${toFolder}/)`);
				const toName = bare.split("/").pop() ?? "";
				if (
					SLICE.test(file) &&
					toName !== "event-doc" &&
					(VIEW.test(`${bare}.ts`) || KEYS.test(bare) || HOSTS.has(toFolder) || (toFolder === "root" && folder !== "root"))
				)
					report("pure-state", `imports ${spec}`);
				if (VIEW.test(file) && (LOADS.test(bare) || HOSTS.has(toFolder))) report("pure-view", `imports ${spec}`);
			}
			const to = placeOf(target);
			if (to === null) {
				if (inSrc || place.folder === "components")
					report(place.folder === "components" ? "component-imports" : "face-imports", `imports ${spec} outside src/ and components/`);
				continue;
			}
			if (place.folder === "components") {
				const ok =
					to.folder === "components" || to.folder === "present" || ["src/shared/types", "src/shared/queries"].includes(target.replace(/\.(js|ts)$/, ""));
				if (!ok) report("component-imports", `imports ${spec}`);
				continue;
			}
			if (FACE_FOLDERS.has(place.folder)) {
				const ok =
					["service", "shared", "present", place.folder].includes(to.folder) ||
					((place.folder === "cli" || place.folder === "extension") && to.folder === "components");
				if (!ok) report("face-imports", `imports ${spec} (${to.folder})`);
				continue;
			}
			if (place.layer !== null && to.layer !== null && to.layer > place.layer)
				report("layer-order", `${place.folder} imports ${spec} (${to.folder} comes later)`);
		}

		for (const literal of literalsOf(source)) {
			if (place.folder !== "index" && SQL.test(literal)) report("sql-text", `holds SQL: ${literal.trim().slice(0, 60)}`);
			if (inSrc && DIST_PATH.test(literal)) report("no-dist-path", `names ${literal.slice(0, 60)}`);
		}
		if (hasDefaultExport(source) && !EXTENSION_ENTRIES.has(file)) report("default-export", "has a default export");
		const wholeDoc = ["eventDoc", "buildEventDoc"].find((name) => namesIdentifier(source, name));
		if (REDUCER.test(file) && wholeDoc) report("reducer-state", `names ${wholeDoc}`);
		for (const name of internalNames(source)) if (PRIVATE_INK_KNOWN[file]?.name !== name) report("private-ink", `names ${name}`);
		const known = PRIVATE_INK_KNOWN[file];
		if (known && !internalNames(source).includes(known.name)) report("private-ink", `no longer names ${known.name}: drop it from PRIVATE_INK_KNOWN`);
		for (const spec of importsOf(text)) if (/^ink\/build(\/|$)/.test(spec)) report("private-ink", `imports ${spec}`);
		for (const literal of literalsOf(source))
			if (/\bink[\\/]build\b|(^|[\\/])output\.js$/.test(literal)) report("private-ink", `names ${literal.slice(0, 60)}`);
	}
	for (const cycle of cyclesOf(componentGraph)) violations.push({ rule: "no-cycle", file: cycle[0] as string, detail: `import cycle: ${cycle.join(" → ")}` });
	return { files, violations };
}

/** The import cycles of a graph: each strongly connected component of more than one module (or a module importing itself), sorted. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const out: string[][] = [];
	const visit = (v: string) => {
		index.set(v, index.size);
		low.set(v, index.get(v) as number);
		stack.push(v);
		onStack.add(v);
		for (const w of graph.get(v) ?? []) {
			if (!index.has(w)) {
				visit(w);
				low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
			} else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
		}
		if (low.get(v) !== index.get(v)) return;
		const component: string[] = [];
		let w: string;
		do {
			w = stack.pop() as string;
			onStack.delete(w);
			component.push(w);
		} while (w !== v);
		if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
	};
	for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
	return out.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}
