/** Writes one session's rows: events with their tree classification, FTS rows, tool calls and file evidence. */
import type Database from "better-sqlite3";
import type { ScannedEntry } from "../project/file-scan.js";
import type { NodeState } from "../project/tree.js";
import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import { AppendClassifier } from "./append-classify.js";
import { KIND_COLUMN_INDEX, KIND_COLUMNS } from "./schema.js";
import { SessionClassification } from "./session-classify.js";
import { hideSession } from "./session-removal.js";
import type { IndexStore } from "./store.js";
import { dropSummaryRuns } from "./summary-runs.js";
import { systemTextId } from "./system-texts.js";
import { appendShape, type ShapeInput } from "./tree-shape-store.js";

/** An event whose searchable rows are written and whose events row waits for the session's classification. */
export interface StagedEvent extends ScannedEntry {
	eventId: number;
	seq: number;
	kinds: number;
	/** system_texts ids of its system prompt sections, comma-separated in fragment position order. */
	sysTexts: string | null;
}

const INSERT_EVENT = `INSERT INTO events (id, session_id, entry_id, parent_id, seq, line, byte_offset, byte_length, line_hash, synthetic, type,
	role, ts, ts_ms, tool_name, tool_call_id, is_error, exit_code, model, provider, stop_reason, custom_type, ref_id, label, msg_producing,
	ctx_flags, context_role, branch_state, selection_state, summarized_by, summarized_prov, abandoned_by, edit_state, edit_by, cur_label, preview, frags,
	nfrags, kinds, sys_texts)
	VALUES (${new Array(40).fill("?").join(", ")})`;

const flag = (v: boolean | null) => (v === null ? null : v ? 1 : 0);
const int = (v: number | null) => (v === null ? null : Math.trunc(v));

type Statement = Database.Statement;

/** Writes sessions for one store; one instance per refresh. */
export class SessionWriter {
	/** The FTS insert of each column, by column index: looked up once per fragment of a cold index, so kept at hand. */
	private readonly ftsInsert: Statement[];
	private readonly insertCall: Statement;
	private readonly insertFile: Statement;
	private nextId = 0;
	/** Appends to an indexed session that the fast path did not cover, so the whole session was classified again. */
	reclassified = 0;

	private readonly appends: AppendClassifier;

	constructor(readonly store: IndexStore) {
		this.appends = new AppendClassifier(store, (...args) => this.insertStaged(...args));
		this.ftsInsert = KIND_COLUMNS.map((c) => store.prepare(`INSERT INTO fts(rowid, ${c.column}) VALUES (?, ?)`));
		this.insertCall = store.prepare("INSERT INTO tool_calls (event_id, session_id, call_id, name, frag) VALUES (?, ?, ?, ?, ?)");
		this.insertFile = store.prepare("INSERT INTO file_evidence (event_id, session_id, path, rel, via) VALUES (?, ?, ?, ?, ?)");
	}

	/**
	 * Starts a file inside the write transaction: event ids continue after the largest in the index. A refresh reads
	 * the changed files oldest first (refresh-plan.ts), so ids follow the files' modification times and a query
	 * matching more than the ranking window ranks the newest events (search.ts RANK_WINDOW). Allocating downwards
	 * instead, to read the newest files first, made FTS5 flush a segment at every file (its pending terms must grow
	 * in rowid order): 38% more bytes written by a cold index.
	 */
	beginFile(): void {
		const row = this.store.prepare<[], { n: number | null }>("SELECT max(id) AS n FROM events").get();
		this.nextId = (row?.n ?? 0) + 1;
	}

	/** Writes an event's searchable rows now; its events row is written by commit() once the tree is known. */
	stage(sessionId: number, seq: number, scanned: ScannedEntry): StagedEvent {
		const eventId = this.nextId++;
		let kinds = 0;
		const system: number[] = [];
		const { fts } = scanned;
		for (let position = 0; position < fts.length; position++) {
			const f = fts[position] as ScannedEntry["fts"][number];
			const column = KIND_COLUMN_INDEX.get(f.kind) as number;
			if (f.kind === "system.prompt") system[position] = systemTextId(this.store, typeof f.text === "string" ? f.text : Buffer.from(f.text).toString("utf8"));
			else (this.ftsInsert[column] as Statement).run(eventId * FRAGMENT_SLOTS + position, f.text);
			kinds |= 1 << column;
		}
		for (const call of scanned.ev.toolCalls) this.insertCall.run(eventId, sessionId, call.id, call.name, call.fragmentId);
		for (const file of scanned.ev.files) this.insertFile.run(eventId, sessionId, file.path, file.rel, file.via);
		// Position order, so a text's index in the list is its fragment position (-1: not a system section).
		const sysTexts = system.length ? Array.from(system, (id) => id ?? -1).join(",") : null;
		return { entry: scanned.entry, ev: scanned.ev, fts, frags: scanned.frags, eventId, seq, kinds, sysTexts };
	}

	/** True while a big file's slices wait for its last one to classify the session (see commit). */
	isDeferred(sessionId: number): boolean {
		return this.store.meta(`unclassified:${sessionId}`) !== null;
	}

	/**
	 * Classifies the session with its staged events (I12–I14), inserts them and updates rows whose state changed.
	 * `previousLeafId` is the leaf the session's rows were classified with (null or undefined: a new session); an
	 * append that only extends that leaf's path is classified from the new entries alone (commitExtension).
	 * `partial`: the staged entries are a slice of a file that goes on (ScanPlan.maxBytes).
	 */
	commit(sessionId: number, staged: StagedEvent[], leafId: string | null, previousLeafId?: string | null, partial = false): void {
		// The shape gets this commit's entries at once: an append rewrites the shape's last chunk (up to SHAPE_CHUNK
		// entries), and a slice of pi's usual file is hundreds of appends (one per compaction and per turn back).
		this.shapeQueue = [];
		this.commitRows(sessionId, staged, leafId, previousLeafId, partial);
		if (this.shapeQueue.length > 0) appendShape(this.store, sessionId, this.shapeQueue);
	}

	/** The entries the current commit inserted, for the session's shape (started again by every commit). */
	private shapeQueue: ShapeInput[] = [];

	private commitRows(sessionId: number, staged: StagedEvent[], leafId: string | null, previousLeafId?: string | null, partial = false): void {
		const deferKey = `unclassified:${sessionId}`;
		const deferred = this.isDeferred(sessionId);
		// Nothing new (a duplicate line) may still move the leaf: the general way below.
		if (!deferred && previousLeafId !== undefined && previousLeafId !== null && staged.length > 0) {
			// The fast path, one stretch at a time: the entries up to a compaction, the compaction, the entries after it.
			let previous = previousLeafId;
			let at = 0;
			while (at < staged.length) {
				// A stretch also ends where the next entry does not hang under the one before it (a branch summary at its
				// branch point, pi's /tree): each chain is an append of its own, so a rewind never reclassifies the session.
				let end = at + 1;
				if ((staged[at] as StagedEvent).ev.type !== "compaction")
					while (end < staged.length && staged[end]?.ev.type !== "compaction" && staged[end]?.entry.parentId === staged[end - 1]?.entry.id) end++;
				const segment = staged.slice(at, end);
				const segmentLeaf = end === staged.length ? leafId : (segment.at(-1) as StagedEvent).entry.id;
				const done =
					segment[0]?.ev.type === "compaction"
						? this.appends.commitCompaction(sessionId, segment[0] as StagedEvent, segmentLeaf, previous)
						: this.appends.commitExtension(sessionId, segment, segmentLeaf, previous);
				if (!done) break;
				previous = (segment.at(-1) as StagedEvent).entry.id;
				at = end;
			}
			const rest = staged.slice(at);
			if (rest.length === 0) return;
			// What is written is classified; the rest goes the general way, after it.
			staged = rest;
			previousLeafId = previous;
		}
		// The session is classified as a whole below (now, or at its last slice): that re-points every summary.
		dropSummaryRuns(this.store, sessionId);
		if (partial && (deferred || (previousLeafId !== undefined && previousLeafId !== null))) {
			// A slice of a big file that does not just extend the leaf's path: classifying the whole session at every
			// slice would cost the session's size per slice. Its rows wait with provisional states (`unknown`) and the
			// file's last slice classifies the session once; the flag is in the same transaction as the rows.
			if (!deferred) this.store.setMeta(deferKey, "1");
			this.insertStaged(
				sessionId,
				staged,
				() => undefined,
				() => null,
			);
			return;
		}
		if (deferred) this.store.prepare("DELETE FROM meta WHERE key = ?").run(deferKey);
		if (deferred || (previousLeafId !== undefined && previousLeafId !== null)) this.reclassified++;
		// Numbers only, not the rows: a session of any size and shape is classified in a few words an entry.
		const whole = SessionClassification.read(this.store, sessionId, staged, leafId);
		whole.writeIndexed();
		this.insertStaged(
			sessionId,
			staged,
			(_, j) => whole.stateAt(whole.stagedIndex(j)),
			(_, j) => whole.labelAt(whole.stagedIndex(j)),
			(_, j) => whole.abandonedAt(whole.stagedIndex(j)),
		);
		// The session browser shows fork points per session: counted here, where the whole tree is at hand, so
		// the listing reads one column instead of grouping every event of the index.
		this.store.prepare("UPDATE sessions SET fork_points = ? WHERE id = ?").run(whole.forkPoints, sessionId);
	}

	private insertStaged(
		sessionId: number,
		staged: StagedEvent[],
		stateOf: (id: string, at: number) => NodeState | undefined,
		labelOf: (id: string, at: number) => string | null,
		abandonedOf: (id: string, at: number) => string | null = () => null,
	): void {
		const insert = this.store.prepare(INSERT_EVENT);
		for (const [at, s] of staged.entries()) {
			const { entry, ev } = s;
			const st = stateOf(entry.id, at);
			insert.run(
				s.eventId,
				sessionId,
				entry.id,
				entry.parentId,
				s.seq,
				entry.lineNo,
				entry.offset,
				entry.length,
				entry.lineHash,
				entry.synthetic ? 1 : 0,
				ev.type,
				ev.role,
				ev.timestamp,
				int(ev.tsMs),
				ev.toolName,
				ev.toolCallId,
				flag(ev.isError),
				int(ev.exitCode),
				ev.model,
				ev.provider,
				ev.stopReason,
				ev.customType,
				ev.refId,
				ev.label,
				ev.messageProducing ? 1 : 0,
				ev.ctxFlags,
				ev.contextRole,
				st?.branchState ?? "unknown",
				st?.selectionState ?? "unknown",
				st?.summarizedBy?.entryId ?? null,
				st?.summarizedBy?.provenance ?? null,
				abandonedOf(entry.id, at),
				st?.contextEdit?.state ?? null,
				st?.contextEdit?.by ?? null,
				labelOf(entry.id, at),
				ev.preview,
				s.frags,
				s.fts.length,
				s.kinds,
				s.sysTexts,
			);
		}
		// Added to the shape at commit's end, after every insert: a parent later in the batch is found by its row.
		for (const s of staged)
			this.shapeQueue.push({
				eventId: s.eventId,
				entryId: s.entry.id,
				parentId: s.entry.parentId,
				type: s.ev.type,
				role: s.ev.role,
				isError: s.ev.isError,
				stopReason: s.ev.stopReason,
				frags: s.frags,
			});
	}

	/**
	 * Removes a session: hidden at once in the open write transaction, its rows deleted afterwards in bounded chunks
	 * (session-removal.ts), so no write costs the session's size.
	 */
	removeSession(sessionId: number): void {
		hideSession(this.store, sessionId);
	}
}
