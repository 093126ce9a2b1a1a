/** The search screen: title with chips and the query line on top, the hit list and the preview below. */
import { Box } from "ink";
import type { Hit, IndexStatus } from "../src/shared/types.js";
import type { IndexingState } from "./explorer-service.js";
import { HitList } from "./HitList.js";
import { keyFor } from "./keymap.js";
import { Lines } from "./Line.js";
import { MIN_SIZE, type SearchLayout } from "./layout.js";
import { Preview } from "./Preview.js";
import { SplitPane } from "./SplitPane.js";
import { chipLine, emptyLines, queryLine, titleLine } from "./search-view.js";
import { previewKey, type State, selectedHit } from "./state.js";
import { fitLine, lineWidth, seg } from "./styled.js";

/** Placeholder of an empty query line. */
export const QUERY_PLACEHOLDER = "search as you type · ↓ hits · Ctrl+X errors only · F1 help (letters are always text here)";
/** Placeholder beside filter chips. */
export const QUERY_PLACEHOLDER_SHORT = "search as you type · Backspace removes the last chip";

/** Props of <SearchHeader/>. */
export interface SearchHeaderProps {
	state: State;
	width: number;
	banner: string | null;
	color: boolean;
	now?: number;
}

/** Title line (chips, count) and query line. */
export function SearchHeader({ state, width, banner, color, now = Date.now() }: SearchHeaderProps) {
	const h = state.hits;
	const r = h.results;
	const title = titleLine(
		{
			banner,
			scope: h.scope,
			workspace: h.workspace,
			session: h.scopeSession,
			filters: h.filters,
			order: h.order,
			group: h.group,
			count: r.hits.length,
			more: !r.exhausted,
			loading: r.status === "loading" && r.hits.length === 0,
			query: state.query.text,
		},
		width,
	);
	// The filter chips end the query line; the query keeps at least half of it.
	const chips = fitLine(chipLine(h.filters, now), Math.floor(width / 2));
	const chipsWidth = lineWidth(chips);
	const query = [
		...queryLine(
			state.query.text,
			state.query.cursor,
			state.focus === "query" && state.events.stack.length === 0 && state.overlay === null,
			width - chipsWidth,
			chipsWidth > 0 ? QUERY_PLACEHOLDER_SHORT : QUERY_PLACEHOLDER,
		),
		...chips,
	];
	return (
		<Box flexDirection="column" width={width} height={2}>
			<Lines lines={[title, query]} color={color} height={2} />
		</Box>
	);
}

/** Props of <SearchBody/>. */
export interface SearchBodyProps {
	state: State;
	layout: SearchLayout;
	now: number;
	color: boolean;
	indexing: IndexingState;
	status: IndexStatus | null;
}

/** Hit list and preview, side by side on wide terminals, stacked otherwise. */
export function SearchBody({ state, layout, now, color, indexing, status }: SearchBodyProps) {
	const h = state.hits;
	const r = h.results;
	const hit: Hit | null = selectedHit(state);
	const empty = emptyLines({
		loading: r.status === "loading",
		error: r.error,
		query: state.query.text,
		notes: r.notes,
		scope: h.scope,
		filters: h.filters,
		indexEvents: r.index?.events ?? null,
		indexing,
		status,
	});
	const list = (
		<HitList
			hits={r.hits}
			selected={h.selected}
			top={h.top}
			width={layout.listWidth}
			height={layout.listLines}
			hitLines={layout.hitLines}
			now={now}
			color={color}
			empty={empty}
			copies={r.copies}
			groups={r.groups}
		/>
	);
	const preview = (
		<Preview
			hit={hit}
			preview={h.preview}
			current={h.preview !== null && h.preview.key === previewKey(state)}
			width={layout.previewWidth}
			height={layout.previewLines}
			now={now}
			color={color}
			rule={!layout.side}
		/>
	);
	return (
		<SplitPane
			side={layout.side}
			width={layout.width}
			firstLines={layout.listLines}
			secondLines={layout.previewLines}
			color={color}
			first={list}
			second={preview}
		/>
	);
}

/** A one-line notice used when the terminal is too small for any layout. */
export function tooSmallLine(width: number) {
	// Keys still act while the notice shows, and focus may be on the query line, where q is text: name the key
	// that quits there too, before the size (a narrow terminal cuts the end).
	return fitLine([seg(`make the terminal larger · ${keyFor("query", "quit")} quits · at least ${MIN_SIZE.columns}×${MIN_SIZE.rows}`, "warn")], width);
}
