/** Every action of the explorer: the union of the core's and the features' action types. */
import type { BrowseAction, FilterAction, LoadAction, NavAction, OverlayKeyAction, QueryAction, ScreenAction, TreeKeyAction } from "../core/actions.js";
import type { EventAction, EventLoadAction } from "../event/actions.js";

export type {
	BrowseAction,
	FilterAction,
	LoadAction,
	Message,
	NavAction,
	OverlayKeyAction,
	QueryAction,
	ScreenAction,
	TaskKind,
	TreeKeyAction,
} from "../core/actions.js";
export type { EventAction, EventLoadAction } from "../event/actions.js";

/** Everything a key or a finished load can do. */
export type Action =
	| QueryAction
	| NavAction
	| FilterAction
	| EventAction
	| OverlayKeyAction
	| TreeKeyAction
	| LoadAction
	| EventLoadAction
	| ScreenAction
	| BrowseAction;
