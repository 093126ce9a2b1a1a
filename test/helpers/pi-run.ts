/** Running a real pi CLI non-interactively for end-to-end tests; which pi (and which Node) is a parameter. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { PROJECT_ROOT } from "./corpus.js";

/** One pi installation to run, with the scripted model and our package as that pi loads them. */
export interface PiRunner {
	label: string;
	node: string;
	cli: string;
	/** Environment to start from (e.g. the right Node first on PATH). */
	env: NodeJS.ProcessEnv;
	/** The scripted-model extension written for this pi's pi-ai. */
	fauxModel: string;
	/** Our package directory as this pi loads it: `-e <packageDir>` (its package.json `pi.extensions`), or `<packageDir>/extension/*.ts`. */
	packageDir: string;
	/** Removes what preparing this pi left behind (e.g. a staged copy of the package). */
	cleanup?: () => void;
}

/** pi 0.73.1 from our devDependencies, on the Node running the tests, loading this checkout. */
export const PI_073: PiRunner = {
	label: "pi 0.73.1",
	node: process.execPath,
	cli: join(PROJECT_ROOT, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js"),
	env: process.env,
	fauxModel: join(PROJECT_ROOT, "test", "support", "faux-model.ts"),
	packageDir: PROJECT_ROOT,
};

/** What a pi run printed and how it ended. */
export interface PiRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs `pi <args>` with stdin closed (pi -p reads piped stdin to its end); kills it after `timeoutMs`. */
export function runPi(runner: PiRunner, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<PiRun> {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(runner.node, [runner.cli, ...args], { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
		child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
		const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 180_000);
		child.on("error", reject);
		child.on("close", (code) => {
			clearTimeout(timer);
			resolvePromise({ code, stdout, stderr });
		});
	});
}
