/**
 * The order test files start in (vitest.config.ts `sequence.sequencer`): the longest first, so the run does not end
 * on one of them with the other workers idle, and the many short ones last, to fill the workers to the end. The known
 * long source-only files start while dist/ builds in the background; then the known long files that use the build,
 * by then built; then the other files that use it (real pi and terminal runs, seconds each); then the other
 * source-only files, most of them a fraction of a second. Within each, vitest's own order (longest first by the last
 * run's durations, by size on a clean clone).
 */
import { relative, sep } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Known long files of each part, longest first (the durations of a full run, after pi loads our build). */
const LONG: Record<string, string[]> = {
	unit: [
		"test/big-session.test.ts",
		"test/huge-line.test.ts",
		"test/reliability-hostile.test.ts",
		"test/compaction-runs.test.ts",
		"test/find-scroll.test.tsx",
		"test/compaction-long-path.test.ts",
		"test/components.test.tsx",
		"test/ingest.test.ts",
		"test/tui-browse.test.tsx",
		"test/feel.test.tsx",
		"test/properties.test.ts",
		"test/architecture.test.ts",
	],
	built: [
		"test/refresh-slices.test.ts",
		"test/package.test.ts",
		"test/tui-tasks.e2e.test.ts",
		"test/index-ownership.test.ts",
		"test/cli.test.ts",
		"test/session-search.e2e.test.ts",
		"test/caller-session-dir.e2e.test.ts",
		"test/reliability-kill.test.ts",
		"test/tui-trust.e2e.test.ts",
		"test/tui.e2e.test.ts",
		"test/terminal-safety.test.ts",
		"test/reliability-faults.test.ts",
		"test/tui-browse.e2e.test.ts",
		"test/pipeline.test.ts",
		"test/pi16.e2e.test.ts",
		"test/pi16-land.e2e.test.ts",
		"test/extension.e2e.test.ts",
		"test/tui-keys.e2e.test.ts",
		"test/copied-agent-dir.test.ts",
		"test/reliability-index.test.ts",
		"test/missing-binding.e2e.test.ts",
		"test/pi073-history.e2e.test.ts",
	],
};

/** Which part a file belongs to: the source-only project, or one of those that wait for the build. */
const part = (spec: TestSpecification): string => (spec.project.name === "unit" ? "unit" : "built");

/** Sorts the files: the known long ones of each part (source-only first), the other built ones, the other source-only ones. */
export class LongFirstSequencer extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const base = await super.sort(files);
		const rank = (spec: TestSpecification) => {
			const list = LONG[part(spec)] ?? [];
			const at = list.indexOf(relative(spec.project.config.root, spec.moduleId).split(sep).join("/"));
			return at < 0 ? list.length : at;
		};
		const group = (spec: TestSpecification) => {
			const long = rank(spec) < (LONG[part(spec)] ?? []).length;
			const unit = part(spec) === "unit";
			return long ? (unit ? 0 : 1) : unit ? 3 : 2;
		};
		const position = new Map(base.map((spec, i) => [spec, i]));
		return [...base].sort((a, b) => group(a) - group(b) || rank(a) - rank(b) || (position.get(a) ?? 0) - (position.get(b) ?? 0));
	}
}
