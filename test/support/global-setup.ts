/**
 * vitest globalSetup of the projects whose tests use dist/ (see vitest.config.ts): starts one build in the
 * background and returns at once, so the source-only tests run while tsc works; the waiting projects' setup file
 * (test/support/wait-for-build.ts) holds each of their test files until the build is over.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildDist } from "../helpers/build.js";
import { announceBuild } from "./build-signal.js";

declare module "vitest" {
	export interface ProvidedContext {
		/** The folder where the build of this run announces its outcome. */
		distBuild: string;
	}
}

/** One build per vitest run, shared by every project that lists this setup. */
interface RunBuild {
	signalDir: string;
	finished: Promise<void>;
}

const key = Symbol.for("pi-event-search.dist-build");
const shared = globalThis as typeof globalThis & { [key]?: RunBuild };

function startBuild(): RunBuild {
	const signalDir = mkdtempSync(join(tmpdir(), "pes-build-"));
	const finished = buildDist()
		.catch((error: unknown) => ({ ok: false, output: String(error) }))
		.then((outcome) => announceBuild(signalDir, outcome));
	return { signalDir, finished };
}

export default function setup(project: TestProject): () => Promise<void> {
	shared[key] ??= startBuild();
	const build = shared[key];
	project.provide("distBuild", build.signalDir);
	return async () => {
		// tsc must not be left writing dist/ after the run; the folder goes with the last project's teardown.
		await build.finished;
		if (shared[key] === build) {
			shared[key] = undefined;
			rmSync(build.signalDir, { recursive: true, force: true });
		}
	};
}
