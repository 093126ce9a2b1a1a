/** The event view's actions: the tree walk and the event's keys, and the answers of its loads. */
import type { EventRef, FragmentWindow } from "../../src/shared/types.js";
import type { TaskKind } from "../core/actions.js";
import type { EventData } from "./event-data.js";

/** Where a walk goes. */
export type WalkTo = "parent" | "child" | "next-sibling" | "prev-sibling" | "append-prev" | "append-next" | "forks" | "fork-up";

/** The event view and the tree walk. */
export type EventAction =
	| { type: "walk"; to: WalkTo }
	| { type: "toggle-panel" }
	| { type: "toggle-wrap" }
	| { type: "find-open" }
	| { type: "find-cancel" }
	| { type: "find-submit" }
	| { type: "find-step"; dir: 1 | -1 }
	| { type: "task"; task: TaskKind };

/** Answers of the event view's loads; each carries the key or sequence number it answers, so stale ones are dropped. */
export type EventLoadAction =
	| { type: "event-done"; key: string; data: EventData | null; error: string | null }
	| { type: "page-done"; key: string; fragmentId: string; offset: number; window: FragmentWindow | null; error: string | null }
	| { type: "find-done"; seq: number; match: { fid: string; at: number } | null; wrapped: boolean; error: string | null }
	| { type: "seek-done"; seq: number; target: { ref: EventRef; steps: number; branches: number } | null; error: string | null };
