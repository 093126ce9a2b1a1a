/** `pi-history search`'s own flag reading: what it takes, as meow would give it, and what it leaves to meow. */
import { describe, expect, it } from "vitest";
import { parseSearchArgs } from "../src/cli/search-args.js";

describe("search's fast start path", () => {
	it("reads a plain command line as meow gives it: camelCase names, repeatable lists, numbers, negations", () => {
		expect(
			parseSearchArgs([
				"--json",
				"handleWebhook",
				"--kind",
				"tool.result",
				"--kind=user.text",
				"timeout",
				"--limit=3",
				"--no-refresh",
				"--snippet-chars",
				"80",
			]),
		).toEqual({
			flags: { json: true, kind: ["tool.result", "user.text"], limit: 3, refresh: false, snippetChars: 80 },
			words: ["handleWebhook", "timeout"],
		});
		expect(parseSearchArgs(["--sessions-dir", "/a", "--sessions-dir", "/b", "--no-error", "--after", "2d", "内存泄漏"])).toEqual({
			flags: { sessionsDir: ["/a", "/b"], error: false, after: "2d" },
			words: ["内存泄漏"],
		});
	});

	it("leaves to meow every line it does not know for certain, so usage errors and help read as before", () => {
		for (const argv of [
			["--help"],
			["--version"],
			["-q", "x"],
			["--", "--json"],
			["x", "--bogus"],
			["x", "--limit"],
			["x", "--limit", "abc"],
			["x", "--limit", "3", "--limit", "4"],
			["x", "--json=false"],
			["x", "--cwd", "--json"],
			["x", "--after="],
			["x", "--no-limit"],
			["x", "--snippetChars", "80"],
			["404"],
			["1e3"],
		])
			expect(parseSearchArgs(argv), argv.join(" ")).toBeNull();
	});
});
