/**
 * One session as a caller may see it, answered by indexed lookups one entry at a time (parent, children by
 * parent, append order by row id): a read, a trace or a walk costs what it touches, never the whole session
 * (DESIGN §7: ≤ 50 ms whatever the session's size).
 */
import type { Catalog, EventRow, SessionRow } from "../index/catalog.js";
import type { ChildrenLookup, ParentLookup } from "../project/tree.js";
import type { Visibility } from "./visibility.js";

/** Lazily looked-up, visibility-filtered events of one session, cached for the request. */
export class SessionView {
	private readonly rows = new Map<string, EventRow | null>();
	private readonly kids = new Map<string, EventRow[]>();
	/** Row id at and above which events are invisible (the caller's own session), or null. */
	readonly below: number | null;

	constructor(
		readonly catalog: Catalog,
		readonly visibility: Visibility,
		readonly session: SessionRow,
	) {
		this.below = visibility.currentSession === session.id ? visibility.cutoff : null;
	}

	/** A visible event by entry id. */
	event(entryId: string): EventRow | undefined {
		let row = this.rows.get(entryId);
		if (row === undefined) {
			const found = this.catalog.eventByEntry(this.session.id, entryId);
			row = found && this.visibility.allowsEvent(found, this.session) ? found : null;
			this.rows.set(entryId, row);
		}
		return row ?? undefined;
	}

	/** Visible children of an entry, in append order. */
	children(entryId: string): EventRow[] {
		let list = this.kids.get(entryId);
		if (!list) {
			list = this.catalog.children(this.session.id, entryId).filter((e) => this.visibility.allowsEvent(e, this.session));
			for (const e of list) this.rows.set(e.entry_id, e);
			this.kids.set(entryId, list);
		}
		return list;
	}

	/** Up to `n` visible events before or after one, in append order. */
	appendOrder(event: EventRow, direction: "before" | "after", n: number): EventRow[] {
		return this.catalog.appendOrder(this.session.id, event.id, direction, n, this.below);
	}

	/** The parent lookup of tree.ts over this view. */
	readonly parents: ParentLookup = {
		get: (id) => {
			const e = this.event(id);
			return e ? { parentId: e.parent_id } : undefined;
		},
	};

	/** The children lookup of tree.ts over this view. */
	readonly childIds: ChildrenLookup = {
		get: (id) => this.children(id).map((e) => e.entry_id),
	};
}
