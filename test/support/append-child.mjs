// Child process that appends entries to session files the way pi does (one appendFileSync per line), sometimes in
// two halves so readers see torn last lines, until a line arrives on its stdin. It prints its running count of
// written entries after each one, so the parent can wait for progress instead of a timer.
// usage: node append-child.mjs <file>...
import { appendFileSync, readFileSync } from "node:fs";

const files = process.argv.slice(2);
const leaf = new Map(
	files.map((f) => [
		f,
		readFileSync(f, "utf8")
			.trim()
			.split("\n")
			.map((l) => {
				try {
					return JSON.parse(l).id;
				} catch {
					return null;
				}
			})
			.filter(Boolean)
			.at(-1) ?? null,
	]),
);
let n = 0;
let stop = false;
process.stdin.once("data", () => {
	stop = true;
});
const step = () => {
	if (stop) {
		process.stdin.destroy();
		return;
	}
	const file = files[n % files.length];
	const id = `w${process.pid.toString(16)}${(n++).toString(16).padStart(6, "0")}`;
	const line = `${JSON.stringify({ type: "message", id, parentId: leaf.get(file), timestamp: new Date(Date.UTC(2026, 5, 1) + n * 1000).toISOString(), message: { role: "user", content: [{ type: "text", text: `concurrent append ${n} about handleWebhook` }], timestamp: n } })}\n`;
	if (n % 3 === 0) {
		const cut = Math.floor(line.length / 2);
		appendFileSync(file, line.slice(0, cut));
		appendFileSync(file, line.slice(cut));
	} else {
		appendFileSync(file, line);
	}
	leaf.set(file, id);
	process.stdout.write(`${n}\n`);
	// A short pause between entries (as pi's appends come) keeps the files from growing without bound on a fast machine.
	setTimeout(step, 2);
};
step();
