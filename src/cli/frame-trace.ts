/**
 * The explorer's frame trace, for the typing benchmark (bench/typing.ts): with PI_HISTORY_FRAME_TRACE=<file>, the
 * explorer notes on the monotonic clock (the one a typist outside the process reads too) when keys arrive, when each
 * search is asked and answered, and when Ink draws a frame (also one that comes out as the last did, so nothing is
 * written: the answer is on screen all the same), and writes them to <file> at Ink's first frame and as the process
 * exits. Off, it costs nothing.
 */
import { writeFileSync } from "node:fs";
import type { ExplorerService } from "../../components/core/explorer-service.js";

/** What the trace file holds: times in milliseconds on the monotonic clock (process.hrtime). */
export interface FrameTraceFile {
	/** Input read by the explorer. */
	keys: number[];
	/** Ink frames drawn (each the state of one commit, or several coalesced by Ink's throttle). */
	renders: number[];
	/** [time, CPU ms the process used so far, all threads] at each key read and each frame drawn. */
	cpu: Array<[number, number]>;
	/** Searches of the hit list's first page or more: when asked of the query thread, when answered (null: dropped). */
	searches: Array<{ query: string; offset: number; asked: number; answered: number | null }>;
}

/** Hooks into the explorer that feed the trace; a no-op without one. */
export interface FrameTrace {
	/** The service with its searches timed. */
	service(service: ExplorerService): ExplorerService;
	/** Ink's render option: called for every frame drawn. */
	inkOptions: { onRender?: () => void };
	/** Starts noting input on `stdin` (after Ink took it). */
	watchKeys(stdin: NodeJS.ReadStream): void;
}

const now = (): number => Number(process.hrtime.bigint()) / 1e6;

function cpuMs(): number {
	const u = process.cpuUsage();
	return (u.user + u.system) / 1000;
}

/** The trace asked for by `path` (the PI_HISTORY_FRAME_TRACE variable); none when it is unset. */
export function frameTrace(path: string | undefined): FrameTrace {
	if (!path) return { service: (s) => s, inkOptions: {}, watchKeys: () => {} };
	const file: FrameTraceFile = { keys: [], renders: [], cpu: [], searches: [] };
	const write = () => {
		try {
			writeFileSync(path, JSON.stringify(file));
		} catch {
			// a benchmark without its trace says so itself
		}
	};
	process.on("exit", write);
	return {
		service: (service) => ({
			...service,
			search: async (request) => {
				const entry = { query: request.query, offset: request.offset ?? 0, asked: now(), answered: null as number | null };
				file.searches.push(entry);
				const result = await service.search(request);
				entry.answered = now();
				return result;
			},
		}),
		inkOptions: {
			onRender: () => {
				const t = now();
				file.renders.push(t);
				file.cpu.push([t, cpuMs()]);
				// Written at the first frame too: a benchmark waiting for the explorer's own frame sees it come.
				if (file.renders.length === 1) write();
			},
		},
		watchKeys: (stdin) =>
			void stdin.on("data", () => {
				const t = now();
				file.keys.push(t);
				file.cpu.push([t, cpuMs()]);
			}),
	};
}
