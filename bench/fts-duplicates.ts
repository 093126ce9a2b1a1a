/**
 * How much of a cold index's FTS input is an exact copy of an earlier fragment (forks and clones copy their parent's
 * entries into a new file): reads every file as a cold index would (file-scan, oldest first), hashes each fragment's
 * FTS text with its kind, and counts the fragments and bytes whose hash was seen before, in another session or the
 * same one. System prompt sections are left out: the index already stores each distinct one once (system-texts.ts).
 *   node dist/bench/fts-duplicates.js --roots A,B
 */
import { createHash } from "node:crypto";
import { scanFile } from "../src/project/file-scan.js";
import { discover } from "../src/source/discover.js";
import { benchConfig, parseArgs } from "./child.js";

const { options } = parseArgs(process.argv.slice(2));
const roots = (options.get("roots") ?? "").split(",").filter(Boolean);
if (roots.length === 0) {
	process.stderr.write("usage: fts-duplicates.js --roots DIR[,DIR]\n");
	process.exit(2);
}
const files = discover(benchConfig(roots).roots).files.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
/** First session (file index) that carried each text. */
const firstSeen = new Map<string, number>();
const total = { fragments: 0, bytes: 0, tokens: 0 };
const otherSession = { fragments: 0, bytes: 0, tokens: 0 };
const sameSession = { fragments: 0, bytes: 0, tokens: 0 };
let eventsAllCopies = 0;
let events = 0;
const add = (c: typeof total, text: string) => {
	c.fragments++;
	c.bytes += Buffer.byteLength(text);
	// The ascii tokenizer splits the stream on spaces: a token per run.
	c.tokens += text.split(" ").length;
};
files.forEach((file, fileIndex) => {
	const scan = scanFile({ path: file.path, mode: "rebuild" });
	for (const scanned of scan.entries) {
		let copies = 0;
		let texts = 0;
		for (const f of scanned.fts) {
			if (f.kind === "system.prompt") continue;
			texts++;
			const text = f.text as string; // scanFile itself returns strings (bytes come only from the scan thread)
			add(total, text);
			const key = createHash("sha1").update(f.kind).update("\0").update(text).digest("base64");
			const first = firstSeen.get(key);
			if (first === undefined) firstSeen.set(key, fileIndex);
			else {
				copies++;
				add(first === fileIndex ? sameSession : otherSession, text);
			}
		}
		if (texts > 0) events++;
		if (texts > 0 && copies === texts) eventsAllCopies++;
	}
});
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
const line = (name: string, c: typeof total) =>
	`${name.padEnd(34)} ${String(c.fragments).padStart(8)} fragments (${pct(c.fragments, total.fragments)})  ${(c.bytes / 1e6).toFixed(1).padStart(7)} MB (${pct(c.bytes, total.bytes)})  ${String(c.tokens).padStart(10)} tokens (${pct(c.tokens, total.tokens)})`;
process.stdout.write(
	`${[
		`${files.length} files; FTS input without system prompt sections:`,
		line("all fragments", total),
		line("copy of one in an earlier session", otherSession),
		line("copy of one earlier in its session", sameSession),
		`distinct texts ${firstSeen.size}; events with text ${events}, of which every fragment a copy ${eventsAllCopies} (${pct(eventsAllCopies, events)})`,
	].join("\n")}\n`,
);
