/**
 * A partial answer whose rarest word is still common (issue 28): more fragments hold it than its own scored list
 * reads. Ground truth by hand: the oldest event alone holds both query words that exist, 600 newer events hold only
 * the rarer one and 1,500 newest only the commoner one, so the oldest event holds the most of the query.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { linearSessionService, tempDir } from "./helpers/corpus.js";

const RARER = 600;
const COMMONER = 1500;
const id = (i: number) => `e${String(i).padStart(4, "0")}`;

let t: ReturnType<typeof tempDir>;
let service: HistoryService;

beforeAll(() => {
	t = tempDir("pes-partial-core-");
	const texts = Array.from({ length: 1 + RARER + COMMONER }, (_, i) =>
		i === 0 ? "zqrarer zqcommoner" : i <= RARER ? `zqrarer item${i}` : `zqcommoner item${i}`,
	);
	service = linearSessionService(t.dir, "core", "0199d000-0000-7000-8000-0000000000c4", texts, id);
});

afterAll(() => {
	service?.close();
	t.cleanup();
});

it("ranks the one event holding the most words first, however many newer events hold the rarest word alone", () => {
	const r = service.search({ query: "zqrarer zqcommoner nowherezz", limit: 5 });
	expect(r.match).toBe("partial");
	expect(r.unmatched).toEqual(["nowherezz"]);
	expect(r.hits[0]?.entryId).toBe(id(0));
	// Then the newest events holding the rarer word.
	expect(r.hits.slice(1).map((h) => h.entryId)).toEqual([RARER, RARER - 1, RARER - 2, RARER - 3].map(id));
});
