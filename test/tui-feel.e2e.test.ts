import { describe, expect, it } from "vitest";
import { explorerOnCorpus } from "./helpers/explorer-e2e.js";
import { hasTmux, type TmuxSession } from "./helpers/tmux.js";

const title = (screen: string) => screen.split("\n")[0] ?? "";
const queryLine = (screen: string) => screen.split("\n")[1] ?? "";

describe.skipIf(!hasTmux)("the explorer's command line (tmux)", () => {
	const explorer = explorerOnCorpus("pes-tui-feel-");
	const start = (flags: string): TmuxSession => explorer.start({ flags, size: { columns: 120, rows: 30 } });

	it("starts with -q and --kind/--error as its query and filters, and shows only failed tool results", async () => {
		const s = start("-q ECONNREFUSED --kind tool.result --error");
		// The index is built while the explorer runs: wait for the hits, not the first (empty) answer.
		const screen = await s.waitFor((x) => /\b[1-9]\d*\+? hits?/.test(title(x)));
		// The filter chips end the query line.
		expect(queryLine(screen)).toMatch(/\[kind:tool\.result\].*\[errors only\]/);
		expect(screen.split("\n")[1]).toContain("❯ ECONNREFUSED");
		// Every hit row says ✗ error, and no other kind (a narrow row drops its date and kind before its session id).
		const metas = screen.split("\n").filter((l) => /^\s?▌?\s?\S.* #[0-9a-f]{4} /.test(l));
		expect(metas.length).toBeGreaterThan(0);
		for (const l of metas) {
			expect(l).toMatch(/✗ error/);
			expect(l).not.toMatch(/user\.text|assistant\.text|tool\.call/);
		}
	});

	it("finds labels: --label on the command line, and label:TEXT typed in the query", async () => {
		const s = start("--label before-refactor");
		let screen = await s.waitFor((x) => /\b[1-9]\d*\+? recent events/.test(title(x)));
		expect(queryLine(screen)).toContain("[label:before-refactor]");
		// The fixture corpus has label entries "before-refactor" (its label lines, checked by hand): they are the rows.
		expect(screen).toMatch(/#before-refactor/);
		s.kill();
		const t = start("");
		await t.waitFor("recent events");
		t.type("label:before-refactor");
		screen = await t.waitFor((x) => /\b[1-9]\d*\+? hits?/.test(title(x)) && x.includes("#before-refactor"));
		expect(screen).not.toContain("No hits");
	});

	it("refuses a wrong --kind before taking the screen (exit 2)", async () => {
		const s = start("--kind tool.nonsense");
		const screen = await s.waitFor("__EXIT__=");
		expect(screen).toContain("__EXIT__=2");
		expect(screen).toMatch(/kind/);
	});
});
