/** The session browser (F2): drawn in place of the screen's body, from browser-view's lines. */
import { Box } from "ink";
import type { BrowserState } from "../browser/browser-state.js";
import { browserLines } from "../browser/browser-view.js";
import { BROWSER_KEYS } from "../root/help.js";
import { Lines } from "./Line.js";

/** Props of <SessionBrowser/>. */
export interface SessionBrowserProps {
	browser: BrowserState;
	width: number;
	height: number;
	now: number;
	color: boolean;
}

/** Every session with its size, branches and lineage; the reducer owns filter, sort, scope and selection. */
export function SessionBrowser({ browser, width, height, now, color }: SessionBrowserProps) {
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Lines lines={browserLines(browser, width, height, now, BROWSER_KEYS)} color={color} height={height} />
		</Box>
	);
}
