/**
 * The session browser and the go-to-ref prompt in the explorer, rendered with ink-testing-library over a real
 * HistoryService on the fixture corpus: F2 lists the sessions (counts and lineage from the manifest), letters
 * filter, F4 sorts, Ctrl+S scopes to the workspace, Enter opens a session at its materialized leaf and Esc comes back
 * to the browser; F3 takes a ref (typed or pasted), says why an unknown one fails, and lands on a known one.
 */
import { cleanup, render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { App } from "../components/ink/App.js";
import { type IndexedCorpus, indexedCorpus } from "./helpers/corpus.js";
import { frame, KEYS, press, type Rendered, type, waitForFrame } from "./helpers/ink.js";

const NOW = Date.parse("2026-06-10T12:00:00Z");
const F2 = "\u001bOQ";
const F3 = "\u001bOR";
const F4 = "\u001bOS";
const CTRL_S = "\u0013";
const WORKSPACE = "/home/alice/code/payments-api";
let c: IndexedCorpus;

beforeAll(() => {
	c = indexedCorpus("pes-tui-browse-", { copy: false });
});
afterEach(() => cleanup());
afterAll(() => c.cleanup());

function app(): Rendered {
	return render(<App service={c.service} size={{ columns: 110, rows: 34 }} now={NOW} color={false} workspace={WORKSPACE} previewDelayMs={0} />);
}
const sessions = () => c.manifest.files.filter((f) => f.isSession);

describe("session browser", () => {
	it("lists every session with lineage, filters, sorts, scopes, opens at the leaf and comes back", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await press(r, F2);
		const n = sessions().length;
		let f = await waitForFrame(r, `${n} of ${n}`);
		expect(f).toContain("Sessions · all sessions · sorted by last activity");
		// The /clone of the payments session says so, and its parent counts its children.
		// A session pi made with newSession({parentSession}) names its parent; the parent counts it.
		expect(f).toMatch(/new session after \S/);
		expect(f).toContain("1 fork");

		// Typing an id filters to that session: a /clone says what it is a clone of.
		const clone = sessions().find((s) => s.quirks.some((q) => q.startsWith("/clone")));
		if (!clone?.sessionId) throw new Error("the corpus has no /clone");
		await type(r, clone.sessionId);
		f = await waitForFrame(r, `1 of ${n}`);
		expect(f).toMatch(/clone of \S+.* #[0-9a-f]{4}/);
		await press(r, "\u0015");
		await waitForFrame(r, `${n} of ${n}`);

		// Letters filter by cwd: only the ledger service's session is left.
		await type(r, "ledger");
		const ledger = sessions().filter((s) => s.cwd?.includes("ledger"));
		f = await waitForFrame(r, `${ledger.length} of ${n}`);
		expect(f).toContain("services/ledger");
		for (let i = 0; i < 6; i++) await press(r, KEYS.backspace);
		await waitForFrame(r, `${n} of ${n}`);

		// F4: by name, then by events (the biggest session first).
		await press(r, F4);
		await waitForFrame(r, "sorted by name");
		await press(r, F4);
		await waitForFrame(r, "sorted by events");
		// The selection stays on the session it was on; Home goes to the top of the new order.
		await press(r, KEYS.home);
		f = frame(r);
		const biggest = Math.max(...sessions().map((s) => s.entries));
		const lines = f.split("\n");
		const firstRow = lines[lines.findIndex((l) => l.startsWith("filter ❯")) + 1] ?? "";
		expect(firstRow.startsWith("▌")).toBe(true);
		expect(firstRow).toContain(`${biggest} events`);

		// Ctrl+S: this workspace (the folder and below, not payments-api-v2).
		await press(r, CTRL_S);
		const inWs = sessions().filter((s) => s.cwd === WORKSPACE || s.cwd?.startsWith(`${WORKSPACE}/`)).length;
		f = await waitForFrame(r, `${inWs} of ${inWs}`);
		expect(f).toContain("this workspace");
		expect(f).not.toContain("payments-api-v2");

		// Enter: the selected session's tree at its materialized leaf; Esc the leaf's event, Esc the browser as it was.
		await press(r, KEYS.home);
		await press(r, KEYS.enter);
		f = await waitForFrame(r, "⑂ tree");
		await press(r, KEYS.esc);
		f = await waitForFrame(r, (x) => x.includes("◆ ") && !x.includes("⑂ tree"));
		await press(r, KEYS.esc);
		f = await waitForFrame(r, "sorted by events");
		expect(f).toContain(`${inWs} of ${inWs}`);
		await press(r, KEYS.esc);
		await waitForFrame(r, "recent events");
		r.unmount();
	});
});

describe("go to a reference", () => {
	it("says why an unknown ref fails, lands on a pasted one, and Esc goes back", async () => {
		const target = sessions().find((s) => s.headerVersion === 3 && s.leafIdOnLoad && s.quirks.length === 0);
		if (!target?.sessionId || !target.leafIdOnLoad) throw new Error("no plain session in the corpus");
		const r = app();
		await waitForFrame(r, "recent events");
		await press(r, F3);
		await waitForFrame(r, "Go to a reference");
		await type(r, "pi-history search foo");
		await press(r, KEYS.enter);
		await waitForFrame(r, "search names no event");
		// An id that is not in the index: the check says so, the prompt stays.
		await press(r, "\u0015");
		for (let i = 0; i < 30; i++) await press(r, KEYS.backspace);
		await type(r, `${target.sessionId} deadbeef`);
		await press(r, KEYS.enter);
		await waitForFrame(r, `no event ${target.sessionId}/deadbeef in the index`);
		for (let i = 0; i < 8; i++) await press(r, KEYS.backspace);
		// A bracketed paste of the tools' labelled form: the paste markers never reach the text.
		for (let i = 0; i < 60; i++) await press(r, KEYS.backspace);
		await press(r, `\u001b[200~sessionId=${target.sessionId} entryId=${target.leafIdOnLoad}\u001b[201~`);
		let f = await waitForFrame(r, `entryId=${target.leafIdOnLoad}`);
		expect(f).not.toContain("[200~");
		expect(f).not.toContain("[201~");
		await press(r, KEYS.enter);
		f = await waitForFrame(r, `went to ${target.sessionId} ${target.leafIdOnLoad}`);
		await press(r, KEYS.esc);
		await waitForFrame(r, "recent events");
		expect(frame(r)).not.toContain("Go to a reference");

		// The short session id the explorer shows (#tail) with an entry id: the one session it names.
		const tail = target.sessionId.replace(/-/g, "").slice(-8);
		await press(r, F3);
		await waitForFrame(r, "Go to a reference");
		// A burst read in one chunk edits like the same keys typed one by one: three letters, three Backspaces.
		await press(r, "xyz\u007f\u007f\u007f");
		await type(r, `#${tail} ${target.leafIdOnLoad}`);
		await press(r, KEYS.enter);
		await waitForFrame(r, `went to ${target.sessionId} ${target.leafIdOnLoad}`);
		r.unmount();
	});
});
