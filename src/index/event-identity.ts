/**
 * Which of two events of equal score and time comes first: their identity, in SQL (IDENTITY_COLUMNS, IDENTITY_ORDER)
 * and in JavaScript (byIdentity), which must agree.
 */

/**
 * What breaks a tie between events of equal score and time: their identity, newest session first (its header's start
 * time, then its id), then the later entry of its file. Never the row id: row ids follow the history of refreshes,
 * and every answer must be a fresh build's. The columns come from `events e` and `sessions sx`.
 */
export const IDENTITY_COLUMNS = "sx.created AS s_created, sx.public_id AS s_public, e.seq AS e_seq";
/** The tie-break over IDENTITY_COLUMNS. */
export const IDENTITY_ORDER = "s_created DESC, s_public DESC, e_seq DESC";

/** IDENTITY_ORDER in JavaScript, for events of one time. */
export function byIdentity(a: EventKey, b: EventKey): number {
	return binary(b.s_created, a.s_created) || binary(b.s_public, a.s_public) || b.e_seq - a.e_seq;
}

/** SQLite's BINARY order (UTF-8 bytes, i.e. code points): UTF-16 units order the same but for U+E000–U+FFFF against surrogates. */
export function binary(a: string, b: string): number {
	if (a === b) return 0;
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) {
		const x = a.charCodeAt(i);
		const y = b.charCodeAt(i);
		if (x === y) continue;
		const cx = x >= 0xe000 ? x - 0x800 : x >= 0xd800 ? x + 0x2000 : x;
		const cy = y >= 0xe000 ? y - 0x800 : y >= 0xd800 ? y + 0x2000 : y;
		return cx - cy;
	}
	return a.length - b.length;
}

/**
 * What ranks and folds an event: its entry id and line hash (forked copies share both), time and identity
 * (IDENTITY_COLUMNS).
 */
export interface EventKey {
	eid: number;
	entry_id: string;
	line_hash: string;
	ts_ms: number | null;
	s_created: string;
	s_public: string;
	e_seq: number;
}
