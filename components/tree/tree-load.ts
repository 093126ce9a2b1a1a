/** The tree view's reads, shared by both hosts: the window the top tree needs, from the index's layout. */
import type { LoadAction } from "../core/actions.js";

type TreeDone = Extract<LoadAction, { type: "tree-done" }>;

import type { ExplorerService } from "../core/explorer-service.js";
import { windowOf } from "./tree-layout.js";
import { type TreeLoc, treeLoad } from "./tree-state.js";

/** The loader key of the read the tree needs now (null: none), and the read itself. */
export function treeRead(
	service: ExplorerService,
	loc: TreeLoc | null,
	height: number,
	depth: number,
): { key: string | null; run: () => Promise<TreeDone>; fail: (error: string) => TreeDone } {
	const load = loc ? treeLoad(loc, height) : null;
	const key = loc?.key ?? "";
	const gen = load?.gen ?? 0;
	const scroll = load?.scroll ?? false;
	return {
		key: load ? `${load.key}@${depth}` : null,
		run: async (): Promise<TreeDone> => {
			if (!load) return { type: "tree-done", key, gen, data: null, error: "no tree" };
			if (service.treeWindow) return { type: "tree-done", key, gen, scroll, data: await service.treeWindow(load.request), error: null };
			// A service without windows (a small fake): the whole answer, laid out here.
			if (service.tree) return { type: "tree-done", key, gen, scroll, data: windowOf(await service.tree(load.request), load.request), error: null };
			return { type: "tree-done", key, gen, data: null, error: "this index cannot answer tree questions" };
		},
		fail: (error: string): TreeDone => ({ type: "tree-done", key, gen, scroll, data: null, error }),
	};
}
