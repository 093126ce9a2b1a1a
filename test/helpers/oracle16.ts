/**
 * pi 1.6's own answer to "did the model see this entry, and how", as a test oracle. pi 1.6's package root does not
 * load on Node 20, so its session manager, message conversion and branch summarization are deep-imported from
 * `dist/core`, and pi-ai's transformMessages (what reaches the provider) from `dist/api`. Files are loaded with `SessionManager.inMemory(cwd, undefined, parseSessionEntries(text))`, never
 * `open()` (which repairs files). Only the mapping onto our vocabulary (DESIGN I14) is written here.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "./corpus.js";

/** The package directory of the pi 1.6 devDependency. */
export const PI16_DIR = join(PROJECT_ROOT, "node_modules", "@earendil-works", "pi-coding-agent");

type Json = Record<string, unknown>;
/** A pi session entry as pi 1.6 parses it. */
export type Pi16Entry = Json & { type: string; id: string; parentId: string | null };
interface Projected {
	sourceEntry: Pi16Entry;
	messages: Json[];
}
/** The parts of pi 1.6's SessionManager the oracle and the property use. */
export interface Pi16Manager {
	getEntries(): Pi16Entry[];
	getEntry(id: string): Pi16Entry | undefined;
	getBranch(fromId?: string): Pi16Entry[];
	getLeafId(): string | null;
	getHeader(): Json | null;
	buildSessionProjection(): { entries: Projected[] };
	appendMessage(message: Json): string;
	appendContextEdit(targetId: string, replacement: null | { content: unknown }): string;
	appendCompaction(summary: string, firstKeptEntryId: string | undefined, tokensBefore: number): string;
	appendUsage(kind: string, provider: string, model: string, usage: Json, note?: string): Json;
	appendLabelChange(targetId: string, label: string | undefined): string;
	appendCustomMessageEntry(customType: string, content: unknown, display: boolean): string;
	appendCustomEntry(customType: string, data: unknown): string;
	appendModelChange(provider: string, modelId: string): string;
	branch(id: string): void;
	branchWithSummary(id: string | null, summary: string): string;
	resetLeaf(): void;
}
interface SessionManagerModule {
	SessionManager: {
		inMemory(cwd?: string, options?: unknown, entries?: Json[]): Pi16Manager;
		create(cwd: string, sessionDir?: string, options?: { id?: string; parentSession?: string }): Pi16Manager & { getSessionFile(): string };
	};
	parseSessionEntries(text: string): Json[];
	sessionEntryToContextMessages(entry: Pi16Entry): Json[];
	projectContextEntry(entry: Pi16Entry, edit?: Pi16Entry): Json[];
}

const core = join(PI16_DIR, "dist", "core");
/** pi 1.6's session-manager module. */
export const sm = (await import(pathToFileURL(join(core, "session-manager.js")).href)) as SessionManagerModule;
const { convertToLlm } = (await import(pathToFileURL(join(core, "messages.js")).href)) as { convertToLlm(m: Json[]): Json[] };
/** pi-ai 1.6's transformMessages: what reaches the provider; it drops errored and aborted replies. */
const { transformMessages } = (await import(
	pathToFileURL(join(PROJECT_ROOT, "node_modules", "@earendil-works", "pi-ai", "dist", "api", "transform-messages.js")).href
)) as { transformMessages(messages: Json[], model: Json): Json[] };
const REPLAY_MODEL = { id: "m", api: "a", provider: "p", input: ["text", "image"] };
const { collectEntriesForBranchSummary } = (await import(pathToFileURL(join(core, "compaction", "branch-summarization.js")).href)) as {
	collectEntriesForBranchSummary(session: Pi16Manager, oldLeafId: string | null, targetId: string): { entries: Pi16Entry[] };
};

/** pi 1.6's verdict on one entry, in our vocabulary. */
export interface Verdict {
	branchState: "selected" | "alternate";
	selectionState: "direct" | "summarized" | "omitted" | "not-selected" | "not-applicable";
	contextEdit: { state: "replaced" | "omitted"; by: string } | null;
}

/** pi 1.6's view of a session file's text: one verdict per entry id. */
export function pi16View(text: string, cwd = "/"): Map<string, Verdict> {
	return verdicts(sm.SessionManager.inMemory(cwd, undefined, sm.parseSessionEntries(text)));
}

/** Verdicts from a loaded pi 1.6 SessionManager, whose leaf is the materialized leaf. */
export function verdicts(mgr: Pi16Manager): Map<string, Verdict> {
	const all = mgr.getEntries();
	const onPath = new Set(mgr.getBranch().map((e) => e.id));
	const projection = mgr.buildSessionProjection().entries;
	const projected = new Map(projection.map((p) => [p.sourceEntry.id, p]));
	// pi applies the latest edit per target among the projected entries.
	const edits = new Map<string, Pi16Entry>();
	for (const p of projection) if (p.sourceEntry.type === "context_edit") edits.set(p.sourceEntry.targetId as string, p.sourceEntry);
	const compacted = [...onPath].some((id) => mgr.getEntry(id)?.type === "compaction");
	const described = describedByBranchSummaries(mgr, all);

	const out = new Map<string, Verdict>();
	for (const e of all) {
		const own = sm.sessionEntryToContextMessages(e);
		// An empty branch summary produces no message anywhere: like a label, it is not-applicable.
		const producing = own.length > 0 || e.type === "compaction";
		if (!onPath.has(e.id)) {
			const selectionState = !producing ? "not-applicable" : described.has(e.id) ? "summarized" : "not-selected";
			out.set(e.id, { branchState: "alternate", selectionState, contextEdit: null });
			continue;
		}
		const p = projected.get(e.id);
		const edit = p ? edits.get(e.id) : undefined;
		let v: Verdict;
		if (p && p.messages.length > 0) {
			const sent = transformMessages(convertToLlm(p.messages), REPLAY_MODEL).length > 0;
			const replaced = edit && JSON.stringify(p.messages) !== JSON.stringify(sm.projectContextEntry(e));
			v = {
				branchState: "selected",
				selectionState: sent ? "direct" : "omitted",
				contextEdit: replaced ? { state: "replaced", by: edit.id } : null,
			};
		} else if (p && edit && edit.replacement === null && own.length > 0) {
			v = { branchState: "selected", selectionState: "omitted", contextEdit: { state: "omitted", by: edit.id } };
		} else if (producing && compacted) {
			v = { branchState: "selected", selectionState: "summarized", contextEdit: null };
		} else {
			v = { branchState: "selected", selectionState: "not-applicable", contextEdit: null };
		}
		out.set(e.id, v);
	}
	return out;
}

/**
 * Entries some branch summary describes, by pi's collectEntriesForBranchSummary from the old leaf to the summary's
 * position. The old leaf is the recorded fromId (pi ≥ 0.84.3) when it differs from parentId; in older files
 * (fromId == parentId, or 0.73.1's `fromId: "root"` at a null parent) it is the entry written just before the
 * summary, which is what pi summarized then.
 */
function describedByBranchSummaries(mgr: Pi16Manager, all: Pi16Entry[]): Set<string> {
	const out = new Set<string>();
	all.forEach((s, i) => {
		if (s.type !== "branch_summary") return;
		const fromId = typeof s.fromId === "string" ? s.fromId : null;
		// pi 0.73.1's summary at the root: `parentId: null, fromId: "root"`, a null branch point like fromId == parentId.
		const rootPoint = s.parentId === null && fromId === "root";
		const oldLeaf = fromId !== null && fromId !== s.parentId && !rootPoint ? (mgr.getEntry(fromId) ? fromId : null) : (all[i - 1]?.id ?? null);
		if (oldLeaf === null) return;
		// A null parentId means the summary starts a new root: nothing is shared with the old branch, except the root
		// user or custom message pi moved to (its navigateTree then leaves the leaf at that message's null parent).
		const root = rootPoint ? mgr.getBranch(oldLeaf)[0] : undefined;
		const movedTo =
			root && ((root.type === "message" && (root.message as { role?: string }).role === "user") || root.type === "custom_message") ? root.id : undefined;
		for (const e of collectEntriesForBranchSummary(mgr, oldLeaf, s.parentId ?? movedTo ?? "\u0000no-entry").entries) out.add(e.id);
	});
	return out;
}

/** A session file's text as pi writes it: header, then one JSON line per entry. */
export function sessionText(mgr: Pi16Manager): string {
	return [mgr.getHeader(), ...mgr.getEntries()].map((e) => `${JSON.stringify(e)}\n`).join("");
}
