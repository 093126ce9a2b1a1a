/** `y` says what happened: copied with a clipboard tool, sent as OSC 52, or not copied (tmux drops OSC 52). */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyRef, osc52 } from "../src/cli/clipboard.js";
import { tempDir } from "./helpers/corpus.js";

const tmp = tempDir("pes-clipboard-");
afterAll(() => tmp.cleanup());

describe("copying a ref", () => {
	it("uses a clipboard tool when one works, and says so", () => {
		const out = join(tmp.dir, "clip.txt");
		const tool = join(tmp.dir, "xclip");
		writeFileSync(tool, `#!/bin/sh\ncat > '${out}'\n`);
		chmodSync(tool, 0o755);
		const written: string[] = [];
		const r = copyRef("s1 e1", (s) => written.push(s), { PATH: `${tmp.dir}:/usr/bin:/bin`, DISPLAY: ":0" }, "linux");
		expect(r).toEqual({ text: "copied ref s1 e1 with xclip", copied: true });
		expect(readFileSync(out, "utf8")).toBe("s1 e1");
		expect(written).toEqual([]);
	});

	it("sends OSC 52 without a tool and says the terminal may ignore it", () => {
		const written: string[] = [];
		const r = copyRef("s1 e1", (s) => written.push(s), { PATH: "/nonexistent" }, "linux");
		expect(r.copied).toBe(false);
		expect(r.text).toMatch(/OSC 52; some terminals ignore it/);
		expect(written).toEqual([osc52("s1 e1")]);
	});

	it("inside tmux whose set-clipboard is not on, says it did not copy and shows the ref", () => {
		const written: string[] = [];
		// No tmux server answers on this socket: the option cannot be read as "on".
		const r = copyRef("s1 e1", (s) => written.push(s), { PATH: "/usr/bin:/bin", TMUX: join(tmp.dir, "no-socket,1,0") }, "linux");
		expect(r.copied).toBe(false);
		expect(r.text).toMatch(/^not copied: .*select it: s1 e1$/);
		expect(written).toEqual([]);
	});
});
