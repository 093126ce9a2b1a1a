/**
 * The explorer inside a real pi 0.73.1 (Node 20, the devDependency), interactively in a real terminal (tmux; a
 * scripted faux model that answers "ok N"): pi 0.73.1 has the same overlay and landing API as pi 1.6, so
 * `/history`, a query and Enter move pi to the event, and the next prompt continues from it (read back from the
 * session file pi wrote). Its shortcuts get no command context, so Alt+H's Enter puts the landing command into
 * pi's editor and says so; Enter there switches pi to the other session, at the event. One pi process, loading our
 * TypeScript sources (not the build), as a git install does.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "./helpers/corpus.js";
import { PI_073 } from "./helpers/pi-run.js";
import { assistant, createSession, user } from "./helpers/pi-sessions.js";
import { askedWith, type ExchangeIds, endPi, piStage, promptPi, queryOverlay, startPi, writeExchanges } from "./helpers/pi-stage.js";
import { hasTmux, type TmuxSession } from "./helpers/tmux.js";

describe.skipIf(!hasTmux)("/history inside a real pi 0.73.1 (tmux)", () => {
	const stage = piStage("pes-inpi073-");
	const files = { here: "", other: "" };
	const ids = { here: {} as ExchangeIds, other: {} as ExchangeIds };
	let term: TmuxSession | null = null;

	beforeAll(async () => {
		// Two sessions of the workspace, written by pi 0.73.1's own SessionManager; pi opens the second.
		const write = (word: string) => {
			const m = createSession(stage.cwd, join(stage.agentDir, "sessions", "ws"));
			const written = writeExchanges((role, text) => m.appendMessage(role === "user" ? user(text) : assistant(text)), word);
			return { file: m.getSessionFile() as string, ids: written };
		};
		const other = write("WOMBAT");
		const here = write("DINGO");
		files.other = other.file;
		files.here = here.file;
		ids.other = other.ids;
		ids.here = here.ids;
		// The TypeScript sources, as a git install (which builds nothing) loads them through the package's entry: pi compiles
		// src/ and components/ itself. The other real-pi tests load the package, which takes the build.
		const args = ["--offline", "--provider", "faux", "--model", "faux-1", "-e", PI_073.fauxModel, "-e", join(PROJECT_ROOT, "src", "extension", "index.ts")];
		term = await startPi(stage, PI_073.node, PI_073.cli, [...args, "--session", here.file], process.env.PATH ?? "");
	}, 10 * 60_000);

	afterAll(() => endPi(term, stage));

	const query = (text: string, shows: string) => queryOverlay(term as TmuxSession, text, shows);

	const prompt = (text: string) => promptPi(term as TmuxSession, text);

	it("/history, a query and Enter move pi to the event; the next prompt continues from it", async () => {
		const s = term as TmuxSession;
		await prompt("WARMUP before searching");
		s.type("/history ");
		s.keys("Enter");
		await query("DINGO_REPLY", "DINGO_REPLY: the cache is stale");
		s.keys("Enter");
		await s.waitFor("at entry", 60_000);
		await prompt("CONTINUED_073 from the found event");
		const { entry, up } = askedWith(files.here, "CONTINUED_073");
		expect(entry).toBeDefined();
		expect(up).toContain(ids.here.a1);
		expect(up).not.toContain(ids.here.u2);
		expect(up).not.toContain(ids.here.a2);
	}, 300_000);

	it("Alt+H's Enter puts the landing command into the editor; Enter there switches pi to the other session, at the event", async () => {
		const s = term as TmuxSession;
		s.keys("M-h");
		await query("WOMBAT_REPLY", "WOMBAT_REPLY: the cache is stale");
		s.keys("Enter");
		await s.waitFor((screen) => screen.includes("press Enter to go to the event") && screen.includes("/history-goto"), 60_000);
		s.keys("Enter");
		// pi shows the other session's branch up to the event: its reply, not what came after it.
		await s.waitFor((screen) => screen.includes("WOMBAT_REPLY: the cache is stale") && !screen.includes("Cleared; the build passes"), 60_000);
		await prompt("SWITCHED_073 in the other session");
		const { entry, up } = askedWith(files.other, "SWITCHED_073");
		expect(entry).toBeDefined();
		expect(up).toContain(ids.other.a1);
		expect(up).not.toContain(ids.other.u2);
		expect(askedWith(files.here, "SWITCHED_073").entry).toBeUndefined();
	}, 300_000);
});
