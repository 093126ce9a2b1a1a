/** Writes one session's rows: events with their tree classification, FTS rows, tool calls and file evidence. */
import type Database from "better-sqlite3";
import type { ScannedEntry } from "../project/file-scan.js";
import type { NodeState } from "../project/tree.js";
import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import { AppendClassifier } from "./append-classify.js";
import { deleteFtsRowsTallied, type FtsTally, settleTally } from "./fts-totals.js";
import { KIND_COLUMN_INDEX, KIND_COLUMNS } from "./schema.js";
import { type ClassifiedFields, SessionClassification, sameClassification, sessionEntries } from "./session-classify.js";
import { hideSession } from "./session-removal.js";
import { HELD_CACHE_KIB, INGEST_CACHE_KIB, type IndexStore } from "./store.js";
import { dropSummaryRuns, markSummaryRuns } from "./summary-runs.js";
import { dropUnusedSystemTexts, systemTextId } from "./system-texts.js";
import { dropLayoutHeads } from "./tree-layout-store.js";
import { appendShape, replaceShapeEntry, type ShapeInput } from "./tree-shape-store.js";

/** An event whose searchable rows are written and whose events row waits for the session's classification. */
export interface StagedEvent extends ScannedEntry {
	eventId: number;
	seq: number;
	kinds: number;
	/** system_texts ids of its system prompt sections, comma-separated in fragment position order. */
	sysTexts: string | null;
}

/** The columns an entry's content fixes, in contentValues order: an insert writes them, a replacement rewrites them. */
const CONTENT_COLUMNS = [
	"parent_id",
	"line",
	"byte_offset",
	"byte_length",
	"line_hash",
	"synthetic",
	"type",
	"role",
	"ts",
	"ts_ms",
	"tool_name",
	"tool_call_id",
	"is_error",
	"exit_code",
	"model",
	"provider",
	"stop_reason",
	"custom_type",
	"ref_id",
	"label",
	"msg_producing",
	"ctx_flags",
	"context_role",
	"preview",
	"frags",
	"nfrags",
	"kinds",
	"sys_texts",
];
const STATE_COLUMNS = ["branch_state", "selection_state", "summarized_by", "summarized_prov", "abandoned_by", "edit_state", "edit_by", "cur_label"];
const INSERT_COLUMNS = ["id", "session_id", "entry_id", "seq", ...CONTENT_COLUMNS, ...STATE_COLUMNS];
const INSERT_EVENT = `INSERT INTO events (${INSERT_COLUMNS.join(", ")}) VALUES (${INSERT_COLUMNS.map(() => "?").join(", ")})`;
const REWRITE_EVENT = `UPDATE events SET ${CONTENT_COLUMNS.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`;

const flag = (v: boolean | null) => (v === null ? null : v ? 1 : 0);
const int = (v: number | null) => (v === null ? null : Math.trunc(v));

/** A staged event's values for CONTENT_COLUMNS. */
function contentValues(s: StagedEvent): unknown[] {
	const { entry, ev } = s;
	return [
		entry.parentId,
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
		ev.preview,
		s.frags,
		s.fts.length,
		s.kinds,
		s.sysTexts,
	];
}

/** What replace() reads of the row it rewrites. */
interface ReplacedRow extends ClassifiedFields {
	id: number;
	seq: number;
	nfrags: number;
	sys_texts: string | null;
}

/** What the tree shape keeps of a staged event. */
function shapeInput(s: StagedEvent): ShapeInput {
	return {
		eventId: s.eventId,
		entryId: s.entry.id,
		parentId: s.entry.parentId,
		type: s.ev.type,
		role: s.ev.role,
		isError: s.ev.isError,
		stopReason: s.ev.stopReason,
		frags: s.frags,
	};
}

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
	/** Sessions with an entry replaced since their last commit (replace): classified whole. */
	private readonly replaced = new Set<number>();
	/** FTS rows the replaced entries lost, taken off FTS5's totals once per commit (each update flushes a segment). */
	private tally: FtsTally = { rows: 0, tokens: [] };

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
		// What a file rolled back before its commit left is not this file's.
		this.replaced.clear();
		this.tally = { rows: 0, tokens: [] };
	}

	/** Writes an event's searchable rows now; its events row is written by commit() once the tree is known. */
	stage(sessionId: number, seq: number, scanned: ScannedEntry, eventId = this.nextId++): StagedEvent {
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
		settleTally(this.store, "fts", this.tally);
		this.tally = { rows: 0, tokens: [] };
	}

	/** The entries the current commit inserted, for the session's shape (started again by every commit). */
	private shapeQueue: ShapeInput[] = [];

	private commitRows(sessionId: number, staged: StagedEvent[], leafId: string | null, previousLeafId?: string | null, partial = false): void {
		const deferKey = `unclassified:${sessionId}`;
		const deferred = this.isDeferred(sessionId);
		const replaced = this.replaced.delete(sessionId);
		// Nothing new (a duplicate line) may still move the leaf, and a replaced entry may change any state: the general way below.
		if (!deferred && !replaced && previousLeafId !== undefined && previousLeafId !== null && staged.length > 0) {
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
		const indexed = previousLeafId !== undefined && previousLeafId !== null;
		if (partial && (deferred || indexed || replaced)) {
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
		if (deferred || indexed || replaced) this.reclassified++;
		if (this.holdAbove !== null && sessionEntries(this.store, sessionId) + staged.length > this.holdAbove) {
			// The host pauses between stretches of the classification (classifyHeld), in this transaction: the staged
			// entries are inserted after it, and nothing reads the session before it commits.
			this.held.push({ sessionId, leafId, staged });
			return;
		}
		// Numbers only, not the rows: a session of any size and shape is classified in a few words an entry.
		const inserted = this.shapeQueue.map((e) => e.eventId);
		const whole = SessionClassification.read(this.store, sessionId, staged, leafId, { inserted });
		whole.writeIndexed();
		this.insertClassified(sessionId, staged, whole);
		this.wholeFacts(sessionId, whole);
	}

	/** Inserts the staged entries a whole classification `whole` classified with the session's rows. */
	private insertClassified(sessionId: number, staged: StagedEvent[], whole: SessionClassification): void {
		this.insertStaged(
			sessionId,
			staged,
			(_, j) => whole.stateAt(whole.stagedIndex(j)),
			(_, j) => whole.labelAt(whole.stagedIndex(j)),
			(_, j) => whole.abandonedAt(whole.stagedIndex(j)),
		);
	}

	/**
	 * What only a whole classification counts: the session browser's fork points (the listing reads one column instead
	 * of grouping every event of the index) and the time span (a replaced entry may have held the first or last one).
	 */
	private wholeFacts(sessionId: number, whole: SessionClassification): void {
		this.store
			.prepare("UPDATE sessions SET fork_points = ?, first_ms = ?, last_ms = ? WHERE id = ?")
			.run(whole.forkPoints, whole.span.firstMs, whole.span.lastMs, sessionId);
	}

	/**
	 * Set while the host can pause inside its write transaction (refresh-sliced.ts): a whole classification of a
	 * session of more entries than this is then left to classifyHeld instead of holding the host's event loop.
	 */
	holdAbove: number | null = null;
	private held: Array<{ sessionId: number; leafId: string | null; staged: StagedEvent[] }> = [];

	/** True while a whole classification waits for classifyHeld. */
	get holding(): boolean {
		return this.held.length > 0;
	}

	/** The whole classifications commit() left (holdAbove), a stretch of rows per step, inside the same transaction. */
	*classifyHeld(): Generator<void, void> {
		for (let job = this.held.shift(); job; job = this.held.shift()) {
			const { sessionId, staged, leafId } = job;
			// The session's entries count the staged ones already (ingest.ts), its rows and shape not yet.
			const whole = yield* SessionClassification.reading(this.store, sessionId, staged, leafId, { uncounted: staged.length });
			// The rows the latest compaction summarizes are summarized or re-pointed by summary runs after this
			// transaction, each run a transaction of its own (a turn back past two compactions re-points nearly all).
			const runs = whole.leftToRuns();
			yield;
			// The pages the states dirty go to the WAL as the turns go, not all at the commit; a page written again after
			// that costs the commit the whole transaction (see HELD_CACHE_KIB), so the session's row is written before
			// and the staged entries after, with their states: the rows before them were just written.
			this.wholeFacts(sessionId, whole);
			this.store.setCacheKib(HELD_CACHE_KIB);
			let left = 0;
			try {
				left = yield* whole.writingIndexed(runs);
			} finally {
				this.store.setCacheKib(INGEST_CACHE_KIB);
			}
			this.shapeQueue = [];
			this.insertClassified(sessionId, staged, whole);
			appendShape(this.store, sessionId, this.shapeQueue);
			if (runs && left > 0) markSummaryRuns(this.store, sessionId, runs.by, runs.first, runs.last, runs.below);
		}
	}

	/** Forgets the held classifications of a transaction rolled back. */
	dropHeld(): void {
		this.held = [];
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
			const id = s.entry.id;
			const st = stateOf(id, at);
			insert.run(
				s.eventId,
				sessionId,
				id,
				s.seq,
				...contentValues(s),
				st?.branchState ?? "unknown",
				st?.selectionState ?? "unknown",
				st?.summarizedBy?.entryId ?? null,
				st?.summarizedBy?.provenance ?? null,
				abandonedOf(id, at),
				st?.contextEdit?.state ?? null,
				st?.contextEdit?.by ?? null,
				labelOf(id, at),
			);
		}
		// Added to the shape at commit's end, after every insert: a parent later in the batch is found by its row.
		for (const s of staged) this.shapeQueue.push(shapeInput(s));
	}

	/**
	 * Replaces the indexed entry of `scanned`'s id with this later copy where the first one stands (pi's id map: the
	 * last copy wins, at the first one's place). Its searchable rows, tool calls, file evidence and shape entry are
	 * written again under the same row id and seq, so a session of any size is not read again. Unless the copy holds the
	 * same place in the tree and the context (sameClassification), the session's next commit classifies it whole. The
	 * caller counts it as a duplicate with other content.
	 */
	replace(sessionId: number, scanned: ScannedEntry): void {
		const { store } = this;
		const old = store
			.prepare<[number, string], ReplacedRow>(
				"SELECT id, seq, nfrags, sys_texts, parent_id, ref_id, type, role, msg_producing, ctx_flags, label, ts_ms FROM events WHERE session_id = ? AND entry_id = ?",
			)
			.get(sessionId, scanned.entry.id);
		if (!old) throw new Error(`session ${sessionId} has no entry ${scanned.entry.id} to replace`);
		deleteFtsRowsTallied(
			store,
			"fts",
			Array.from({ length: old.nfrags }, (_, i) => old.id * FRAGMENT_SLOTS + i),
			this.tally,
		);
		for (const table of ["tool_calls", "file_evidence"]) store.prepare(`DELETE FROM ${table} WHERE event_id = ?`).run(old.id);
		const s = this.stage(sessionId, old.seq, scanned, old.id);
		store.prepare(REWRITE_EVENT).run(...contentValues(s), old.id);
		if (old.sys_texts)
			dropUnusedSystemTexts(
				store,
				old.sys_texts
					.split(",")
					.map(Number)
					.filter((t) => t >= 0),
			);
		// A kept layout of the session (tree-layout-append.ts) assumes its laid-out entries never change: laid out again.
		if (replaceShapeEntry(store, sessionId, old.seq, shapeInput(s))) dropLayoutHeads(store, sessionId);
		if (!sameClassification(old, s)) this.replaced.add(sessionId);
	}

	/**
	 * Removes a session: hidden at once in the open write transaction, its rows deleted afterwards in bounded chunks
	 * (session-removal.ts), so no write costs the session's size.
	 */
	removeSession(sessionId: number): void {
		hideSession(this.store, sessionId);
	}
}
