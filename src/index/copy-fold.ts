/** Forked copies folded out of a ranking: each entry's first copy keeps its place, its later ones follow every distinct event. */
import type { Candidate } from "./candidates.js";

/**
 * Events read best first, folded: an entry's first copy met is distinct, its later ones (forked files: same entry id,
 * same line) are its copies, ranked after every distinct event.
 */
export class CopyFold {
	readonly distinct: Candidate[] = [];
	private readonly copies: Candidate[] = [];
	private readonly seen = new Map<string, number>();

	/** Adds the next event in rank order, `family` its entry id and line hash; returns it with its copy rank. */
	add(family: { entry_id: string; line_hash: string }, event: Omit<Candidate, "copy_rank">): Candidate {
		const key = `${family.entry_id}\u0000${family.line_hash}`;
		const copy_rank = (this.seen.get(key) ?? 0) + 1;
		this.seen.set(key, copy_rank);
		const c = { ...event, copy_rank };
		(copy_rank === 1 ? this.distinct : this.copies).push(c);
		return c;
	}

	/** Events `[from, to)` of the folded order: every distinct event, then the copies. */
	slice(from: number, to: number): Candidate[] {
		return this.distinct.length >= to ? this.distinct.slice(from, to) : [...this.distinct, ...this.copies].slice(from, to);
	}
}
