/** The one mapping from a face's arguments to search filters: what the CLI, the extension and the explorer share. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ArgumentError } from "../src/shared/errors.js";
import { searchFilters } from "../src/shared/filters.js";

describe("searchFilters", () => {
	it("drops blanks and resolves relative folders against the caller's cwd", () => {
		const base = join("/", "home", "me", "repo");
		expect(searchFilters({ cwds: ["pkg"], kinds: [], tools: ["", "bash"], after: "" }, base)).toEqual({
			cwds: [join(base, "pkg")],
			tools: ["bash"],
		});
		expect(searchFilters({ workspace: "C:\\work" }, base)).toEqual({ cwds: ["C:\\work"] });
	});

	it("rejects what no search can take, naming the allowed values", () => {
		expect(() => searchFilters({ kinds: ["tool.output"] }, "/")).toThrow(/unknown kind "tool.output"; use one of: user.text/);
		expect(() => searchFilters({ branchStates: ["main"] }, "/")).toThrow(ArgumentError);
		expect(() => searchFilters({ after: "the day after" }, "/")).toThrow(/after must be an ISO date .* or a relative time/);
		expect(() => searchFilters({ cwds: ["a"], workspace: "b" }, "/")).toThrow(/either --cwd or --workspace/);
	});
});
