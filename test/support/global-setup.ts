/** vitest globalSetup: brings dist/ up to date once, before any test file runs (see test/helpers/build.ts). */
import { ensureBuilt } from "../helpers/build.js";

export default function setup(): void {
	ensureBuilt();
}
