/** The search screen: title with chips and the query line on top, the hit list and the preview below. */
import { Box } from "ink";
import { useMemo, useRef } from "react";
import { partialLine } from "../../src/present/text.js";
import type { Hit, IndexStatus } from "../../src/shared/types.js";
import type { IndexingState } from "../core/explorer-service.js";
import { MIN_SIZE, type SearchLayout } from "../core/layout.js";
import { fitLine, seg } from "../core/styled.js";
import { keyFor } from "../root/help.js";
import { emptyListLines, searchTitle } from "../root/search-lines.js";
import { previewKey, type State, selectedHit } from "../root/state.js";
import { groupLabels } from "../search/hits-state.js";
import { searchQueryLine } from "../search/search-view.js";
import { HitList } from "./HitList.js";
import { Lines } from "./Line.js";
import { Preview } from "./Preview.js";
import { SplitPane } from "./SplitPane.js";

export { QUERY_PLACEHOLDER, QUERY_PLACEHOLDER_SHORT } from "../search/search-view.js";

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
	const title = searchTitle(state, banner, width);
	// Where the visible part of a long query starts is the view's own memory (the line editor's scroll position).
	const start = useRef(0);
	const focused = state.focus === "query" && state.events.stack.length === 0 && state.overlay === null;
	const q = searchQueryLine({ text: state.query.text, cursor: state.query.cursor, focused, filters: h.filters, now }, width, start.current);
	start.current = q.start;
	const query = q.line;
	return (
		<Box flexDirection="column" width={width} height={2}>
			<Lines lines={[title, query]} color={color} height={2} />
		</Box>
	);
}

const NO_LINES: Array<{ text: string; tone: "plain" }> = [];

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
	// A new object only when the results change: the memoized list redraws for new counts, not for every key.
	const groups = useMemo(() => (h.group ? groupLabels(r) : undefined), [h.group, r]);
	// Only an empty list shows these lines; a stable empty array keeps the memoized list from redrawing on every key.
	const empty = r.hits.length > 0 ? NO_LINES : emptyListLines(state, indexing, status);
	// A partial answer says so on a dimmed line above its hits (issue 28); the list gives up that line.
	const partial = r.hits.length > 0 ? partialLine(r.notes) : null;
	const hitList = (
		<HitList
			hits={r.hits}
			selected={h.selected}
			top={h.top}
			width={layout.listWidth}
			height={partial ? Math.max(1, layout.listLines - 1) : layout.listLines}
			hitLines={layout.hitLines}
			now={now}
			color={color}
			empty={empty}
			copies={r.copies}
			groups={groups}
		/>
	);
	const list = partial ? (
		<Box flexDirection="column">
			<Lines lines={[fitLine([seg(partial, "dim")], layout.listWidth)]} color={color} height={1} />
			{hitList}
		</Box>
	) : (
		hitList
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
