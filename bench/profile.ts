/** Reads a V8 `.cpuprofile` (from `node --cpu-prof`) into self and inclusive time per function and per source file. */
import { readFileSync } from "node:fs";

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
	startTime: number;
	endTime: number;
}

/** Time attributed to one function or file, in milliseconds. */
export interface ProfileRow {
	name: string;
	ms: number;
	share: number;
}

/** The summary of one profile. */
export interface ProfileSummary {
	totalMs: number;
	selfByFunction: ProfileRow[];
	inclusiveByFunction: ProfileRow[];
	selfByFile: ProfileRow[];
}

/** Short name of a script url: `src/ingest.js`, `node:internal/...`, or the package of a dependency. */
function fileOf(url: string): string {
	if (!url) return "(native / vm)";
	const clean = url.replace(/^file:\/\//, "");
	const nm = clean.lastIndexOf("/node_modules/");
	if (nm !== -1)
		return clean
			.slice(nm + 14)
			.split("/")
			.slice(0, clean.slice(nm + 14).startsWith("@") ? 2 : 1)
			.join("/");
	const dist = clean.lastIndexOf("/dist/");
	if (dist !== -1) return clean.slice(dist + 6);
	return clean;
}

function keyOf(node: ProfileNode): string {
	const { functionName, url, lineNumber } = node.callFrame;
	const name = functionName || "(anonymous)";
	return url ? `${name} ${fileOf(url)}:${lineNumber + 1}` : name;
}

function rows(map: Map<string, number>, total: number, top: number): ProfileRow[] {
	return [...map.entries()]
		.sort((a, b) => b[1] - a[1])
		.slice(0, top)
		.map(([name, us]) => ({ name, ms: us / 1000, share: total > 0 ? us / total : 0 }));
}

/** Summarizes a profile file: the `top` heaviest functions (self and inclusive) and files (self). */
export function summarizeProfile(path: string, top = 20): ProfileSummary {
	const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const self = new Map<string, number>();
	const inclusive = new Map<string, number>();
	const files = new Map<string, number>();
	let total = 0;
	profile.samples.forEach((id, i) => {
		const dt = profile.timeDeltas[i] ?? 0;
		const node = byId.get(id);
		if (!node) return;
		total += dt;
		const key = keyOf(node);
		self.set(key, (self.get(key) ?? 0) + dt);
		const file = node.callFrame.url ? fileOf(node.callFrame.url) : keyOf(node);
		files.set(file, (files.get(file) ?? 0) + dt);
		// Inclusive: each function on the stack once per sample, so recursion is not counted twice.
		const seen = new Set<string>();
		for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
			const n = byId.get(cur);
			if (!n) break;
			const k = keyOf(n);
			if (seen.has(k)) continue;
			seen.add(k);
			inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
		}
	});
	// The bench's own frames and the runtime's entry frames include everything; they say nothing about the core.
	const boring = (k: string) =>
		k.startsWith("(root)") || k.startsWith("(program)") || k.startsWith("evaluate") || k.includes("node:internal") || k.includes(" bench/");
	const interesting = new Map([...inclusive].filter(([k]) => !boring(k)));
	return {
		totalMs: total / 1000,
		selfByFunction: rows(self, total, top),
		inclusiveByFunction: rows(interesting, total, top),
		selfByFile: rows(files, total, top),
	};
}
