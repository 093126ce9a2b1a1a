/**
 * Every design citation in the code resolves inside the repository: `DESIGN §n` / `design.md §n` / a bare `§n` name a
 * numbered section of docs/design.md, `I<n>` (ranges like `I6–I8` too) an invariant entry there.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "./helpers/corpus.js";

/** The folders whose files may cite the design. */
const CITING = ["src", "components", "test", "bench"];

/** A citation found in a file: what it names and where. */
interface Citation {
	ref: string;
	where: string;
}

/** The sections (`## n. …`) and invariants (`- **In**`) docs/design.md defines. */
function designTargets(text: string): Set<string> {
	const targets = new Set<string>();
	for (const m of text.matchAll(/^#{2,3} (\d+)\./gm)) targets.add(`§${m[1]}`);
	for (const m of text.matchAll(/^- \*\*(I\d+)\*\*/gm)) targets.add(m[1] as string);
	return targets;
}

/** The section and invariant citations in one file's text (both ends of a range). */
function citationsIn(text: string, file: string): Citation[] {
	const out: Citation[] = [];
	text.split("\n").forEach((line, i) => {
		const where = `${file}:${i + 1}`;
		for (const m of line.matchAll(/§\s?(\d+)/g)) out.push({ ref: `§${m[1]}`, where });
		for (const m of line.matchAll(/\bI(\d{1,2})\b/g)) out.push({ ref: `I${m[1]}`, where });
	});
	return out;
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
		const path = join(dir, e.name);
		if (e.isDirectory()) return e.name === "fixtures" ? [] : sourceFiles(path);
		return /\.(ts|tsx|mjs)$/.test(e.name) ? [path] : [];
	});
}

const design = readFileSync(join(PROJECT_ROOT, "docs", "design.md"), "utf8");
const targets = designTargets(design);

describe("design citations", () => {
	it("docs/design.md numbers its sections and every invariant I1–I23", () => {
		for (let n = 1; n <= 23; n++) expect(targets.has(`I${n}`), `I${n}`).toBe(true);
		for (let n = 1; n <= 9; n++) expect(targets.has(`§${n}`), `§${n}`).toBe(true);
	});

	it("finds a citation that names nothing (a planted §42 and I99)", () => {
		const planted = citationsIn("// see DESIGN §42 and I99, also §5 and I6–I8", "planted.ts");
		expect(planted.map((c) => c.ref)).toEqual(["§42", "§5", "I99", "I6", "I8"]);
		expect(planted.filter((c) => !targets.has(c.ref)).map((c) => c.ref)).toEqual(["§42", "I99"]);
	});

	it("every §n and I<n> in src/, components/, test/ and bench/ resolves in docs/design.md", () => {
		// This file plants citations that name nothing on purpose.
		const files = CITING.flatMap((d) => sourceFiles(join(PROJECT_ROOT, d))).filter((f) => !f.endsWith("design-refs.test.ts"));
		const citations = files.flatMap((f) => citationsIn(readFileSync(f, "utf8"), relative(PROJECT_ROOT, f)));
		// The code does cite the design: an extractor that found nothing would pass vacuously.
		expect(citations.length).toBeGreaterThan(100);
		expect(citations.filter((c) => !targets.has(c.ref)).map((c) => `${c.where} ${c.ref}`)).toEqual([]);
	});
});
