/**
 * The explorer inside a real pi 1.6, interactively, in a real terminal (tmux; Node 22, see helpers/pi16.ts; a
 * scripted faux model that answers "ok N"): `/history`, a query, Enter lands pi on the event — in its own session
 * and in another session of the workspace — and the next prompt continues from it, read back from the session files
 * pi wrote (parent links), not from the screen. The paste key puts a quote with its ref into pi's editor, and prompt
 * recall puts a past prompt there. One pi process for the whole walk.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "./helpers/corpus.js";
import { askedWith, type ExchangeIds, endPi, fauxMessages, piStage, promptPi, queryOverlay, startPi, writeExchanges } from "./helpers/pi-stage.js";
import { ensurePi16, type Pi16, sharedStage } from "./helpers/pi16.js";
import { hasTmux, type TmuxSession } from "./helpers/tmux.js";

const setup = ensurePi16();
if ("skip" in setup) console.log(`pi 1.6 /history skipped: ${setup.skip}`);

describe.skipIf("skip" in setup || !hasTmux)("/history inside a real pi 1.6 (tmux)", () => {
	const pi = setup as Pi16;
	const stage = piStage("pes-inpi-");
	const files = { here: "", other: "" };
	const ids = { here: {} as ExchangeIds, other: {} as ExchangeIds, otherSession: "", hereSession: "" };
	let term: TmuxSession | null = null;

	beforeAll(async () => {
		const { sm } = await import("./helpers/oracle16.js");
		const msg = fauxMessages();
		// Two sessions of the workspace, written by pi 1.6's own SessionManager; pi opens the second.
		const write = (word: string) => {
			const m = sm.SessionManager.create(stage.cwd, join(stage.agentDir, "sessions", "ws"));
			const written = writeExchanges((role, text) => m.appendMessage(role === "user" ? msg.user(text) : msg.reply(text)), word);
			return { file: m.getSessionFile() as string, session: (m.getHeader() as { id: string }).id, ids: written };
		};
		const other = write("QUOKKA");
		const here = write("NUMBAT");
		files.other = other.file;
		files.here = here.file;
		ids.other = other.ids;
		ids.here = here.ids;
		ids.otherSession = other.session;
		ids.hereSession = here.session;
		const pkg = sharedStage(pi);
		const args = [
			"--offline",
			"--provider",
			"faux",
			"--model",
			"faux-1",
			"-e",
			join(PROJECT_ROOT, "test", "support", "faux-model-16.ts"),
			"-e",
			pkg,
			"--session",
			here.file,
		];
		term = await startPi(stage, pi.node, pi.piCli, args, pi.env.PATH ?? "");
	}, 20 * 60_000);

	afterAll(() => endPi(term, stage));

	/** `/history`, then the query typed in the overlay, until its hit is on screen. */
	async function search(query: string, shows: string): Promise<string> {
		const s = term as TmuxSession;
		s.type("/history ");
		s.keys("Enter");
		return queryOverlay(s, query, shows);
	}

	const prompt = (text: string) => promptPi(term as TmuxSession, text);

	it("Enter on a hit of pi's own session moves pi there; the next prompt continues from it", async () => {
		// Work in pi first (pi also writes the thinking level it adds to a file that lacks one, at the leaf it opened).
		await prompt("WARMUP before searching");
		await search("NUMBAT_REPLY", "NUMBAT_REPLY: the cache is stale");
		(term as TmuxSession).keys("Enter");
		await (term as TmuxSession).waitFor("at entry", 60_000);
		await prompt("CONTINUED_ONE from the found event");
		const { entry, up } = askedWith(files.here, "CONTINUED_ONE");
		expect(entry).toBeDefined();
		expect(up).toContain(ids.here.a1);
		expect(up).not.toContain(ids.here.u2);
		expect(up).not.toContain(ids.here.a2);
	}, 300_000);

	it("Enter on a hit of another session of the workspace switches pi to it, at the event", async () => {
		await search("QUOKKA_REPLY", "QUOKKA_REPLY: the cache is stale");
		(term as TmuxSession).keys("Enter");
		// pi shows the other session's branch up to the event: its reply, not what came after it.
		await (term as TmuxSession).waitFor(
			(screen) => screen.includes("QUOKKA_REPLY: the cache is stale") && !screen.includes("Alt+Q paste quote") && !screen.includes("Cleared; the build passes"),
			60_000,
		);
		await prompt("CONTINUED_TWO in the other session");
		const { entry, up } = askedWith(files.other, "CONTINUED_TWO");
		expect(entry).toBeDefined();
		expect(up).toContain(ids.other.a1);
		expect(up).not.toContain(ids.other.u2);
		expect(up).not.toContain(ids.other.a2);
		expect(askedWith(files.here, "CONTINUED_TWO").entry).toBeUndefined();
	}, 300_000);

	it("Alt+Q pastes a quote of the event with its ref into pi's editor; prompt recall puts a past prompt there", async () => {
		const s = term as TmuxSession;
		await search("NUMBAT_REPLY", "NUMBAT_REPLY: the cache is stale");
		s.keys("M-q");
		await s.waitFor("pasted a quote", 60_000);
		s.keys("Escape");
		await s.waitFor((screen) => !screen.includes("Alt+Q paste quote"), 60_000);
		await prompt("");
		// The quote went into the editor and from there, as pi's own prompt, into the session file pi is on now.
		const { entry } = askedWith(files.other, "NUMBAT_REPLY: the cache is stale");
		expect(JSON.stringify(entry?.message?.content)).toContain(`pi-event-search ref: ${ids.hereSession} ${ids.here.a1}`);

		s.keys("M-r");
		await s.waitFor("prompt recall", 60_000);
		s.type("CONTINUED");
		// Newest first: the prompt sent in the other session, then the one sent here before.
		await s.waitFor(/▸ CONTINUED_TWO in the other session[^\n]*\n {2}CONTINUED_ONE from the found event/, 60_000);
		s.keys("Down");
		s.keys("Enter");
		await s.waitFor((screen) => !screen.includes("prompt recall") && screen.includes("CONTINUED_ONE from the found event"), 60_000);
	}, 300_000);
});
