/**
 * The one-way data flow of DESIGN §3, checked on the import graph:
 * source → project → index → query → present → faces. Only the index layer knows SQL (better-sqlite3); only the
 * source and project layers know pi's JSONL shapes; components get data through props and never touch the index.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "./helpers/corpus.js";

const LAYERS: Record<string, string[]> = {
	// source: where files are and what their lines say
	source: ["paths", "config", "discover", "lines", "parse", "fingerprint", "locate"],
	// project: pi entries → events, fragments, tokens, tree facts
	project: ["types", "errors", "entry", "tokens", "tree", "file-scan", "scan-thread-entry"],
	// index: the only layer that writes SQL
	index: ["schema", "store", "session-writer", "ingest", "refresh", "scan-thread"],
	// query: reads the index, answers search/read/trace for a caller
	query: ["bounds", "catalog", "visibility", "authorize", "query-parse", "snippet", "search", "read", "trace", "service"],
	// present: pure formatting
	present: ["text", "model-text"],
	// faces: composition roots
	faces: ["main", "explorer", "clipboard", "live", "index", "refresh-thread", "query-thread"],
};
const ORDER = ["source", "project", "index", "query", "present", "faces"];
const layerOf = new Map(Object.entries(LAYERS).flatMap(([layer, mods]) => mods.map((m) => [m, layer] as const)));

function imports(file: string): string[] {
	const text = readFileSync(file, "utf8");
	const statics = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gm)].map((m) => m[1] as string);
	const bare = [...text.matchAll(/^\s*import\s+"([^"]+)"/gm)].map((m) => m[1] as string);
	const dynamic = [...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] as string);
	return [...statics, ...bare, ...dynamic];
}

function files(dir: string): string[] {
	return readdirSync(join(PROJECT_ROOT, dir), { recursive: true, encoding: "utf8" })
		.filter((f) => /\.(ts|tsx)$/.test(f))
		.map((f) => join(PROJECT_ROOT, dir, f));
}

const moduleName = (spec: string) => spec.replace(/^.*\//, "").replace(/\.(js|ts|tsx)$/, "");

describe("architecture", () => {
	it("puts every src module in exactly one layer", () => {
		for (const f of files("src")) expect(layerOf.get(moduleName(f)), f).toBeDefined();
	});

	it("lets src modules import only their own layer or layers before it (faces may import anything)", () => {
		const allowedLater: Record<string, string[]> = {
			// file-scan caps fragments at the index's FRAGMENT_SLOTS constant (schema imports only model).
			"file-scan": ["schema"],
		};
		for (const f of files("src")) {
			const me = moduleName(f);
			const layer = layerOf.get(me) as string;
			if (layer === "faces") continue;
			for (const spec of imports(f).filter((s) => s.startsWith("./") || s.startsWith("../"))) {
				const target = moduleName(spec);
				const targetLayer = layerOf.get(target);
				expect(targetLayer, `${me} imports unknown ${spec}`).toBeDefined();
				const ok = ORDER.indexOf(targetLayer as string) <= ORDER.indexOf(layer) || allowedLater[me]?.includes(target);
				expect(ok, `${me} (${layer}) must not import ${target} (${targetLayer})`).toBe(true);
			}
		}
	});

	it("keeps SQL in the index layer and the terminal UI out of the core", () => {
		for (const f of files("src")) {
			const me = moduleName(f);
			const specs = imports(f);
			if (specs.includes("better-sqlite3")) expect(["store"], `${me} imports better-sqlite3`).toContain(me);
			if (layerOf.get(me) !== "faces") {
				expect(
					specs.filter((s) => ["ink", "react", "ink-text-input"].includes(s) || s.startsWith("../components")),
					me,
				).toEqual([]);
				expect(
					specs.filter((s) => s.startsWith("@mariozechner/") || s === "typebox"),
					me,
				).toEqual([]);
			}
		}
	});

	it("lets components import only the model, the presenters, each other, ink, react and the terminal-width libraries", () => {
		for (const f of files("components")) {
			for (const spec of imports(f)) {
				const ok =
					spec.startsWith("./") ||
					spec === "../src/shared/types.js" ||
					spec === "../src/present/text.js" ||
					["ink", "react", "react/jsx-runtime", "string-width", "get-east-asian-width"].includes(spec) ||
					spec.startsWith("node:");
				expect(ok, `${moduleName(f)} imports ${spec}`).toBe(true);
			}
		}
	});

	it("has exactly one default export, the pi extension", () => {
		const withDefault = [...files("src"), ...files("components")].filter((f) => /^export default /m.test(readFileSync(f, "utf8")));
		expect(withDefault.map(moduleName)).toEqual(["index"]);
	});
});
