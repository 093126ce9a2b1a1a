/**
 * What a typed key costs the explorer's own thread, React and Ink alone (issue 29): <App/> rendered by Ink as the
 * launcher renders it (120×40, colour, maxFps 120), its questions answered at once from answers read beforehand (a
 * first pass reads them), TYPED_QUERY typed a key at a time, each once the screen is still. Per pass: CPU per key
 * (process.cpuUsage; no other thread runs), frames per key, and Ink's own time per frame. By default Ink measures
 * and tokenizes through the stand-ins the CLI bundle uses (build/frame-memo-*.ts, resolved by frame-cost-hooks.ts);
 * --no-memo leaves Ink's own modules, to compare.
 *
 *   node dist/bench/frame-cost.js --index PATH --roots DIR[,DIR] [--passes 3] [--no-memo]
 */
import { EventEmitter } from "node:events";
import { register } from "node:module";
import { HistoryService } from "../src/service/service.js";
import { benchConfig, median, parseArgs } from "./child.js";
import { TYPED_QUERY } from "./vocabulary.js";

const { options, flags } = parseArgs(process.argv.slice(2));
const indexPath = options.get("index");
const roots = (options.get("roots") ?? "").split(",").filter(Boolean);
if (!indexPath || roots.length === 0) throw new Error("usage: frame-cost --index PATH --roots DIR[,DIR] [--passes 3] [--no-memo]");
const passes = Number(options.get("passes") ?? "3");
if (!flags.has("no-memo")) register(new URL("./frame-cost-hooks.js", import.meta.url));
process.env.NODE_ENV ??= "production";

const [{ App }, { createElement }, { render }] = await Promise.all([import("../components/ink/App.js"), import("react"), import("ink")]);
const service = HistoryService.open({ config: benchConfig(roots, indexPath) });
const answers = new Map<string, unknown>();
/** The service's answer, read once per request (the clock left out), then given at once. */
const canned =
	<K extends "search" | "count" | "read" | "trace" | "forkAbove">(name: K) =>
	(request: Parameters<HistoryService[K]>[0]): Promise<ReturnType<HistoryService[K]>> => {
		const key = `${name} ${JSON.stringify({ ...request, now: 0 })}`;
		if (!answers.has(key)) answers.set(key, (service[name] as (r: typeof request) => unknown)(request));
		return Promise.resolve(answers.get(key) as ReturnType<HistoryService[K]>);
	};
const explorer = {
	search: canned("search"),
	count: canned("count"),
	read: canned("read"),
	trace: canned("trace"),
	forkAbove: canned("forkAbove"),
	status: () => service.status(),
};

let lastActivity = performance.now();
class Screen extends EventEmitter {
	columns = 120;
	rows = 40;
	isTTY = true;
	write = (_text: string): boolean => {
		lastActivity = performance.now();
		return true;
	};
}
class Keyboard extends EventEmitter {
	isTTY = true;
	private data: string | null = null;
	type(data: string): void {
		this.data = data;
		this.emit("readable");
	}
	// As a real stream: what read() returns is also emitted as 'data' (the explorer's keys listen there).
	read = (): string | null => {
		const d = this.data;
		this.data = null;
		if (d !== null) this.emit("data", d);
		return d;
	};
	setEncoding(): void {}
	setRawMode(): void {}
	resume(): void {}
	pause(): void {}
	ref(): void {}
	unref(): void {}
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Until nothing was drawn for a while: every load of the last key answered and drawn. */
const still = async () => {
	do await sleep(60);
	while (performance.now() - lastActivity < 60);
};
let frames = 0;
let inkMs = 0;
const screen = new Screen();
const keyboard = new Keyboard();
const app = render(createElement(App, { service: explorer, size: { columns: 120, rows: 40 }, color: true }), {
	stdout: screen as unknown as NodeJS.WriteStream,
	stdin: keyboard as unknown as NodeJS.ReadStream,
	stderr: screen as unknown as NodeJS.WriteStream,
	exitOnCtrlC: false,
	patchConsole: false,
	maxFps: 120,
	onRender: ({ renderTime }) => {
		frames++;
		inkMs += renderTime;
		lastActivity = performance.now();
	},
});
await sleep(300);
await still();
const cpuPerKey: number[] = [];
for (let pass = 0; pass <= passes; pass++) {
	// Ctrl+U empties the query between passes.
	keyboard.type("\u0015");
	await still();
	const cpu0 = process.cpuUsage();
	const [frames0, ink0] = [frames, inkMs];
	for (const ch of TYPED_QUERY) {
		keyboard.type(ch);
		await still();
	}
	const cpu = process.cpuUsage(cpu0);
	const n = TYPED_QUERY.length;
	// Pass 0 reads the answers from the index: it is the warm-up, not counted.
	if (pass === 0) continue;
	cpuPerKey.push((cpu.user + cpu.system) / 1000 / n);
	console.log(
		`pass ${pass}: CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(1)} ms a key, ${((frames - frames0) / n).toFixed(1)} frames a key, Ink ${((inkMs - ink0) / (frames - frames0)).toFixed(1)} ms a frame`,
	);
}
console.log(
	`${flags.has("no-memo") ? "Ink's own modules" : "bundle's stand-ins"}: CPU per key, median of ${passes} passes: ${median(cpuPerKey).toFixed(1)} ms`,
);
app.unmount();
service.close();
