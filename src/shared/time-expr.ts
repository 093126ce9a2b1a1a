/**
 * Time expressions for the after/before filters, shared by every face: an ISO date or date-time as the core takes
 * it, or a relative form counted back from `now` (`2d`, `3h`, `90m`, `1w`, `2 days ago`, `today`, `yesterday`,
 * `last week`, `last month`, `last year`). Pure: the clock is an argument.
 */

/** What a time expression means: the instant (epoch ms, ISO) or why it is not one. */
export type TimeExpr = { ok: true; ms: number; iso: string } | { ok: false; error: string };

const UNIT_MS: Record<string, number> = {
	m: 60_000,
	min: 60_000,
	mins: 60_000,
	minute: 60_000,
	minutes: 60_000,
	h: 3_600_000,
	hr: 3_600_000,
	hrs: 3_600_000,
	hour: 3_600_000,
	hours: 3_600_000,
	d: 86_400_000,
	day: 86_400_000,
	days: 86_400_000,
	w: 7 * 86_400_000,
	week: 7 * 86_400_000,
	weeks: 7 * 86_400_000,
	mo: 30 * 86_400_000,
	month: 30 * 86_400_000,
	months: 30 * 86_400_000,
	y: 365 * 86_400_000,
	year: 365 * 86_400_000,
	years: 365 * 86_400_000,
};

/** Local midnight of the day `days` before the day of `now`. */
function midnight(now: number, days: number): number {
	const d = new Date(now);
	return new Date(d.getFullYear(), d.getMonth(), d.getDate() - days).getTime();
}

const ok = (ms: number): TimeExpr => ({ ok: true, ms, iso: new Date(ms).toISOString() });

/** The examples an error names, so a person sees what works. */
export const TIME_EXAMPLES = "2026-01-31, 2026-01-31T12:00Z, 2d, 3h, yesterday, last week";

/** Parses a time expression against `now`; never throws. */
export function parseTimeExpr(text: string, now: number): TimeExpr {
	const t = text.trim().toLowerCase().replace(/\s+/g, " ");
	if (t === "") return { ok: false, error: "empty date" };
	if (/^\d{4}-\d{2}-\d{2}/.test(t)) {
		const ms = Date.parse(text.trim());
		return Number.isFinite(ms) ? ok(ms) : { ok: false, error: `not a date: ${text.trim()}` };
	}
	if (t === "now") return ok(now);
	if (t === "today") return ok(midnight(now, 0));
	if (t === "yesterday") return ok(midnight(now, 1));
	const last = /^(?:last|past) (hour|day|week|month|year)$/.exec(t);
	if (last) return ok(now - (UNIT_MS[last[1] as string] as number));
	const rel = /^(\d+(?:\.\d+)?) ?([a-z]+)(?: ago)?$/.exec(t);
	if (rel) {
		const unit = UNIT_MS[rel[2] as string];
		const n = Number(rel[1]);
		if (unit !== undefined && Number.isFinite(n)) return ok(now - Math.round(n * unit));
	}
	return { ok: false, error: `not a date: ${text.trim()} (try ${TIME_EXAMPLES})` };
}
