/**
 * Typed filters in a real terminal (tmux, the built CLI over a temp copy of the fixture corpus): a label typed into
 * the picker's label row, then a relative date (`Nd`) that excludes the labelled events and one that keeps them,
 * each changing the hits; chips removed one by one with Backspace. Ground truth: the manifest and the fixture files.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureEntry, loadManifest } from "./helpers/corpus.js";
import { explorerOnCorpus } from "./helpers/explorer-e2e.js";
import { hasTmux, type TmuxSession } from "./helpers/tmux.js";

const manifest = loadManifest();
const D = 86_400_000;

/**
 * Opens the picker's row (4 label, 7 after, 8 before) for typing: a probe character typed and seen in the row, then
 * deleted, says the row is being edited before the value is typed.
 */
async function editRow(s: TmuxSession, row: number, name: string) {
	s.keys("C-o");
	await s.waitFor("Filters  every filter");
	for (let i = 0; i < row; i++) s.keys("Down");
	s.keys("Enter");
	await s.waitFor("Enter keep");
	const line = () =>
		s
			.capture()
			.split("\n")
			.find((l) => l.startsWith(`▌ ${name}`)) ?? "";
	const before = line();
	s.type("~");
	await s.waitFor(() => line().includes("~"));
	s.keys("BSpace");
	await s.waitFor(() => !line().includes("~") && line().length > 0 && before.length > 0);
}

describe.skipIf(!hasTmux)("typed filters in a real terminal (tmux)", () => {
	const explorer = explorerOnCorpus("pes-filters-e2e-");

	it("a label filter and an `Nd` date filter change the hits; Backspace takes the chips off", async () => {
		// A label still set on its target: the label entry and the labelled event, each copied into a fork (one row each).
		const label = manifest.needles.find((n) => n.plantedAs === "label.label" && n.occurrences.every((o) => o.labelStillSet));
		const occ = label?.occurrences[0];
		if (!label || !occ?.entryId) throw new Error("fixture label missing");
		const rawLabel = fixtureEntry<{ timestamp: string; targetId: string }>(join(explorer.dir, "corpus"), occ.file, occ.line);
		const target = readFileSync(join(explorer.dir, "corpus", occ.file), "utf8")
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l) as { id?: string; timestamp?: string })
			.find((e) => e.id === rawLabel.targetId);
		if (!target?.timestamp) throw new Error("label target missing");
		const rows = new Set([occ.entryId, rawLabel.targetId]).size;
		const oldest = Math.min(Date.parse(rawLabel.timestamp), Date.parse(target.timestamp));
		const newest = Math.max(Date.parse(rawLabel.timestamp), Date.parse(target.timestamp));
		// Whole days back from now: one that starts after the newest labelled event, one before the oldest.
		const excludes = Math.floor((Date.now() - newest) / D) - 1;
		const includes = Math.ceil((Date.now() - oldest) / D) + 1;
		expect(excludes).toBeGreaterThan(0);

		const s = explorer.start({ size: { columns: 120, rows: 32 } });
		// Once indexed, more events than one page (the title counts them all, or says "N+" until the count comes).
		const manyEvents = (x: string) => {
			const m = /([\d,]+)\+? recent events/.exec(x);
			return m !== null && Number((m[1] as string).replace(/,/g, "")) > 50;
		};
		await s.waitFor(manyEvents);

		await editRow(s, 4, "label");
		s.type(label.text);
		s.keys("Enter");
		await s.waitFor(new RegExp(`label\\s+${label.text}`));
		s.keys("C-o");
		await s.waitFor(`[label:${label.text}]`);
		await s.waitFor(`${rows} recent events`);

		await editRow(s, 7, "after");
		s.type(`${excludes}d`);
		await s.waitFor(new RegExp(`after\\s+${excludes}d`));
		s.keys("Enter");
		s.keys("C-o");
		await s.waitFor(`[after:${excludes}d]`);
		await s.waitFor("No events match the scope and filters.");

		await editRow(s, 7, "after");
		for (let i = 0; i < String(excludes).length + 1; i++) s.keys("BSpace");
		await s.waitFor(() => /▌ after\s*$/m.test(s.capture()));
		s.type(`${includes}d`);
		s.keys("Enter", "C-o");
		await s.waitFor(`[after:${includes}d]`);
		await s.waitFor(`${rows} recent events`);

		// An invalid date is said in the field and not applied.
		await editRow(s, 8, "before");
		s.type("someday");
		await s.waitFor("✗ not a date: someday");
		s.keys("Escape", "Escape");
		await s.waitFor((x) => !x.includes("Filters  every filter"));

		s.keys("BSpace");
		await s.waitFor((x) => !x.includes("[after:") && x.includes(`[label:${label.text}]`));
		await s.waitFor(`${rows} recent events`);
		s.keys("BSpace");
		await s.waitFor((x) => !x.includes("[label:") && manyEvents(x));
	});
});
