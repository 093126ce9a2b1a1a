/**
 * A private copy of the fixture corpus, indexed once for a test file: registers the hooks that copy and index it
 * before the file's tests and close and delete it after (call it at the top level of a test file).
 */
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { HistoryService } from "../../src/service/service.js";
import { copyCorpus, openService, tempDir } from "./corpus.js";

/** The indexed copy: its folder (the corpus is `<dir>/corpus`) and the service on it, set before the tests run. */
export interface IndexedCorpus {
	readonly dir: string;
	readonly service: HistoryService;
}

/** Registers the copy's set-up and tear-down (`prefix` names its temp folder). */
export function indexedCorpus(prefix: string): IndexedCorpus {
	let dir = "";
	let service: HistoryService | null = null;
	let done = () => {};
	beforeAll(() => {
		const t = tempDir(prefix);
		dir = t.dir;
		done = t.cleanup;
		copyCorpus(join(dir, "corpus"));
		service = openService(join(dir, "corpus"), join(dir, "index.sqlite"));
		service.refresh();
	});
	afterAll(() => {
		service?.close();
		done();
	});
	return {
		get dir() {
			return dir;
		},
		get service() {
			if (!service) throw new Error("the indexed corpus is set up in beforeAll: use it inside a test");
			return service;
		},
	};
}
