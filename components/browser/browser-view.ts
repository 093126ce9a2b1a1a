/**
 * The session browser as lines: a title with scope, sort and counts, the filter line, then two lines per session
 * (name, folder and id; start, last activity, events, branches and fork lineage). Every session field goes through
 * terminal-safe's neutralizeLine before it is measured, so a hostile name or cwd is drawn as symbols (I21) and the
 * widths stay right.
 */
import { neutralizeLine } from "../../src/present/terminal-safe.js";
import { relativeTime, shortPath } from "../../src/present/text.js";
import type { SessionListing } from "../../src/shared/types.js";
import { visibleRange } from "../core/list-window.js";
import { num } from "../core/numbers.js";
import { shortIds } from "../core/session-label.js";
import { fitLine, type StyledLine, seg, spread } from "../core/styled.js";
import { type BrowserState, selectedIndex, sessionTitle, visibleSessions } from "./browser-state.js";

/** Lines per session row. */
export const BROWSER_ROW_LINES = 2;
/** Lines above the rows: title and filter line. */
export const BROWSER_HEAD_LINES = 2;

/** How many sessions fit in a body of `height` lines. */
export function browserRows(height: number): number {
	return Math.max(1, Math.floor((height - BROWSER_HEAD_LINES) / BROWSER_ROW_LINES));
}

const SORT_NAMES = { activity: "last activity", name: "name", size: "events" } as const;

const day = (iso: string) => (Number.isNaN(Date.parse(iso)) ? "?" : new Date(iso).toISOString().slice(0, 10));

/** The lineage text of a session: what it was forked or cloned from, and how many sessions fork it. */
export function lineageText(s: SessionListing, short: Map<string, string>): string {
	const parts: string[] = [];
	if (s.parent) {
		const tail = short.get(s.parent.id) ?? s.parent.id.replace(/-/g, "").slice(-6);
		const how = s.parent.origin === "new" ? "new session after" : `${s.parent.origin} of`;
		parts.push(`${how} ${neutralizeLine(s.parent.name ?? "session")} #${tail}`);
	}
	if (s.forks > 0) parts.push(`${s.forks} fork${s.forks === 1 ? "" : "s"}`);
	return parts.join(" · ");
}

function rows(s: SessionListing, width: number, now: number, selected: boolean, short: Map<string, string>): StyledLine[] {
	const marker = selected ? seg("▌", "accent") : seg(" ");
	const title = neutralizeLine(sessionTitle(s));
	const where = `${neutralizeLine(shortPath(s.cwd))} · #${short.get(s.id) ?? s.id}`;
	const stats: StyledLine = [
		seg(`${num(s.events)} event${s.events === 1 ? "" : "s"}`, "dim"),
		seg(" · ", "dim"),
		seg(`${s.branches} branch${s.branches === 1 ? "" : "es"}`, s.branches > 0 ? "accent" : "dim"),
	];
	const first = spread([marker, seg(title, "bold", selected), seg("  "), seg(where, "dim")], stats, width);
	const lineage = lineageText(s, short);
	const second: StyledLine = [
		marker,
		seg(`  started ${day(s.created)} · active ${s.lastAt ? relativeTime(s.lastAt, now) : "never"}`, "dim"),
		...(lineage ? [seg(" · "), seg(lineage, "warn")] : []),
	];
	return [first, fitLine(second, width)];
}

/** The keys the browser's empty lines name (the keymap is the root's: the caller looks them up). */
export interface BrowserKeys {
	editFilter: string;
	scope: string;
}

/** The browser body's lines for a `height`-line pane. */
export function browserLines(b: BrowserState, width: number, height: number, now: number, keys: BrowserKeys): StyledLine[] {
	const list = visibleSessions(b);
	const scope = b.scope === "workspace" && b.workspace ? `this workspace (${neutralizeLine(shortPath(b.workspace))})` : "all sessions";
	const count =
		b.status === "loading" && !b.result ? "loading…" : `${num(list.length)} of ${num(b.result?.total ?? 0)}${b.result?.truncated ? " (newest only)" : ""}`;
	const out: StyledLine[] = [
		spread([seg("Sessions", "title"), seg(` · ${scope} · sorted by ${SORT_NAMES[b.sort]}`, "dim")], [seg(count, "dim")], width),
		fitLine([seg("filter ❯ ", "accent"), seg(neutralizeLine(b.filter)), seg(" ", "plain", true)], width),
	];
	if (b.status === "failed") {
		out.push(fitLine([seg(`  cannot list sessions: ${neutralizeLine(b.error ?? "")}`, "error")], width));
		return out;
	}
	if (b.result && list.length === 0) {
		const why =
			b.filter !== ""
				? `no session matches the filter (name, cwd or id); ${keys.editFilter} edits it`
				: b.scope === "workspace"
					? `no session in this workspace; ${keys.scope} shows all sessions`
					: "no sessions indexed yet";
		out.push([], fitLine([seg(`  ${why}`, "warn")], width));
		return out;
	}
	const fit = browserRows(height);
	const cursor = selectedIndex(b, list);
	const { from, to } = visibleRange(b.top, fit, list.length);
	const shown = list.slice(from, to);
	const short = shortIds([...shown.map((s) => s.id), ...shown.flatMap((s) => (s.parent ? [s.parent.id] : []))]);
	for (let i = from; i < to; i++) out.push(...rows(list[i] as SessionListing, width, now, i === cursor, short));
	return out;
}
