/**
 * The bench corpus builder: writes session families (a primary session plus the /fork, /clone, --fork and
 * newSession children it spawns) through pi's own SessionManager. Load it only after installDeterminism():
 * it imports pi statically, and pi must see the seeded Date and crypto from its first call on.
 */
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import type { AssistantMessage, ImageContent, TextContent, ThinkingContent, ToolCall, ToolResultMessage } from "@mariozechner/pi-ai";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { type DeterministicWorld, mixSeed, Rng } from "./determinism.js";
import {
	CODE,
	COMMANDS,
	ERRORS,
	FILES,
	FLAT_SESSIONS_DIR,
	FUNCS,
	type Lang,
	MODELS,
	type ModelInfo,
	PROJECTS,
	PROMPTS,
	type Project,
	RARE_EVERY,
	RARE_IDENTIFIER,
	REPLIES,
} from "./vocabulary.js";

type PiMessage = Parameters<SessionManager["appendMessage"]>[0];

/** Virtual time between two families' starts; a family's own activity stays well inside it (see buildFamily). */
export const FAMILY_GAP_MS = 3 * 3_600_000;
/** Virtual time of family 0 (seed-independent, so corpora of different seeds are comparable). */
export const EPOCH_MS = Date.UTC(2025, 2, 3, 8, 0, 0);

/** Volume knobs of the "large" kind: ~245 KB and ~75 entries per family on average. */
const VOLUME = {
	turns: [4, 12],
	steps: [1, 4],
	readKB: [2, 10],
	bashKB: [0, 6],
	writeKB: [1, 6],
	bigRate: 0.42,
	bigKB: [100, 250],
	imageRate: 0.22,
	imageKB: [20, 90],
} as const;

/** Where a builder writes: pi's agent dir (default layout) and a flat dir like pi's `sessionDir` setting. */
export interface BuildContext {
	seed: number;
	world: DeterministicWorld;
	flatDir: string;
}

/** What one family produced. */
export interface FamilyResult {
	files: string[];
	/** True when the rare identifier was planted in this family. */
	rare: boolean;
	/** The family's virtual end time; must stay below the next family's start for families to be independent. */
	endMs: number;
}

interface Ctx {
	file: string;
	func: string;
	err: string;
	cmd: string;
	lang: Lang;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const HEX = "0123456789abcdef";

/** A PNG of noise (valid chunks, incompressible like a screenshot) of about `bytes` bytes. */
function pngOfSize(rng: Rng, bytes: number): string {
	const side = Math.max(4, Math.floor(Math.sqrt(bytes / 3)));
	const raw = rng.bytes((side * 3 + 1) * side);
	for (let y = 0; y < side; y++) raw[y * (side * 3 + 1)] = 0;
	const chunk = (type: string, data: Buffer) => {
		const head = Buffer.alloc(8);
		head.writeUInt32BE(data.length, 0);
		head.write(type, 4, "ascii");
		const tail = Buffer.alloc(4);
		tail.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
		return Buffer.concat([head, data, tail]);
	};
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(side, 0);
	ihdr.writeUInt32BE(side, 4);
	ihdr[8] = 8;
	ihdr[9] = 2;
	const png = Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk("IHDR", ihdr),
		chunk("IDAT", deflateSync(raw, { level: 1 })),
		chunk("IEND", Buffer.alloc(0)),
	]);
	return png.toString("base64");
}

/** Lines of `lang` code (with the odd error comment) until `bytes` is reached. */
function codeOfSize(rng: Rng, lang: Lang, bytes: number): string {
	const pool = CODE[lang];
	const lines: string[] = [];
	let size = 0;
	while (size < bytes) {
		const line = rng.chance(0.04) ? `// ${rng.pick(ERRORS)}` : rng.pick(pool);
		lines.push(line);
		size += Buffer.byteLength(line) + 1;
	}
	return lines.join("\n");
}

/** A log as long-running commands print it: timestamps, levels, the occasional error. */
function logOfSize(rng: Rng, lang: Lang, bytes: number): string {
	const lines: string[] = [];
	let size = 0;
	let t = 1_754_300_000 + rng.int(0, 9_000_000);
	while (size < bytes) {
		t += rng.int(0, 3);
		const level = rng.chance(0.06) ? "ERROR" : rng.chance(0.15) ? "WARN" : "INFO";
		const msg =
			level === "ERROR"
				? rng.pick(ERRORS)
				: `${rng.pick(FUNCS)} ${rng.pick(["ok", "done", "retrying", "queued", "flushed"])} in ${rng.int(1, 900)}ms (${rng.pick(FILES[lang])})`;
		const line = `${new Date(t * 1000).toISOString()} ${level.padEnd(5)} ${msg}`;
		lines.push(line);
		size += Buffer.byteLength(line) + 1;
	}
	return lines.join("\n");
}

/** One conversation driven through a SessionManager, with the bookkeeping the features need. */
class Conversation {
	readonly userIds: string[] = [];

	constructor(
		public sm: SessionManager,
		readonly project: Project,
		readonly rng: Rng,
		readonly world: DeterministicWorld,
		public model: ModelInfo,
		readonly rareCarrier: { pending: boolean; planted: boolean },
	) {}

	private tick(lo: number, hi: number): number {
		return this.world.advance(this.rng, lo, hi);
	}

	private ctx(): Ctx {
		const lang = this.project.lang;
		return { file: this.rng.pick(FILES[lang]), func: this.rng.pick(FUNCS), err: this.rng.pick(ERRORS), cmd: this.rng.pick(COMMANDS[lang]), lang };
	}

	/** The rare identifier, once per carrier family, in the first prompt after it was armed. */
	private rare(): string | undefined {
		if (!this.rareCarrier.pending) return undefined;
		this.rareCarrier.pending = false;
		this.rareCarrier.planted = true;
		return RARE_IDENTIFIER;
	}

	private toolCallId(): string {
		const r = this.rng;
		switch (this.model.style) {
			case "anthropic":
				return `toolu_01${r.chars(22, B62)}`;
			case "responses":
				return `call_${r.chars(24, B62)}|fc_${r.chars(48, HEX)}`;
			case "google":
				return `call_${r.chars(8, HEX)}`;
			default:
				return `call_${r.chars(24, B62)}`;
		}
	}

	private thinking(text: string): ThinkingContent {
		const r = this.rng;
		switch (this.model.style) {
			case "anthropic":
				return { type: "thinking", thinking: text, thinkingSignature: r.chars(r.int(280, 1200), B64) };
			case "responses":
				return {
					type: "thinking",
					thinking: text,
					thinkingSignature: JSON.stringify({
						type: "reasoning",
						id: `rs_${r.chars(48, HEX)}`,
						encrypted_content: r.chars(r.int(600, 2400), B64),
						summary: [{ type: "summary_text", text }],
					}),
				};
			case "completions":
				return { type: "thinking", thinking: text, thinkingSignature: "reasoning_content" };
			default:
				return { type: "thinking", thinking: text };
		}
	}

	private assistant(content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"], errorMessage?: string): AssistantMessage {
		const r = this.rng;
		const input = r.int(200, 9000);
		const output = r.int(20, 2500);
		const cacheRead = r.chance(0.75) ? r.int(4000, 120_000) : 0;
		const price = this.model.provider === "anthropic" ? [3, 15] : [1.25, 10];
		const cost = {
			input: (input * (price[0] as number)) / 1e6,
			output: (output * (price[1] as number)) / 1e6,
			cacheRead: (cacheRead * (price[0] as number) * 0.1) / 1e6,
			cacheWrite: 0,
			total: 0,
		};
		cost.total = cost.input + cost.output + cost.cacheRead;
		const msg: AssistantMessage = {
			role: "assistant",
			content,
			api: this.model.api,
			provider: this.model.provider,
			model: this.model.model,
			usage: { input, output, cacheRead, cacheWrite: 0, totalTokens: input + output + cacheRead, cost },
			stopReason,
			timestamp: this.world.now() - r.int(500, 15_000),
		};
		if (this.model.style === "anthropic") msg.responseId = `msg_01${r.chars(22, B62)}`;
		if (this.model.style === "responses") msg.responseId = `resp_${r.chars(48, HEX)}`;
		if (errorMessage !== undefined) msg.errorMessage = errorMessage;
		return msg;
	}

	private append(message: PiMessage): string {
		return this.sm.appendMessage(message);
	}

	/** Model and thinking level at the start, as pi writes them for every new session. */
	open(thinkingLevel: string): void {
		this.tick(100, 800);
		this.sm.appendModelChange(this.model.provider, this.model.model);
		this.sm.appendThinkingLevelChange(thinkingLevel);
	}

	/** A user prompt; sometimes plain-string content, sometimes with a pasted screenshot. */
	user(c: Ctx, opts: { image?: boolean; text?: string } = {}): void {
		this.tick(20_000, 240_000);
		let text = opts.text ?? this.rng.pick(PROMPTS)(c);
		const rare = this.rare();
		if (rare) text += `\n\nThe nightly ${rare} job flagged this account.`;
		const now = this.world.now();
		const content: Array<TextContent | ImageContent> = [{ type: "text", text }];
		if (opts.image) content.push({ type: "image", mimeType: "image/png", data: pngOfSize(this.rng, this.rng.int(VOLUME.imageKB[0], VOLUME.imageKB[1]) * 768) });
		const id = this.append(
			content.length === 1 && this.rng.chance(0.15) ? { role: "user", content: text, timestamp: now } : { role: "user", content, timestamp: now },
		);
		this.userIds.push(id);
	}

	private tool(c: Ctx, big: "write" | "read" | "bash" | undefined): { call: ToolCall; result: ToolResultMessage } {
		const r = this.rng;
		const id = this.toolCallId();
		const kind = big ?? r.pick(["read", "read", "read", "bash", "bash", "edit", "edit", "write", "grep", "find", "ls"] as const);
		const fails = !big && kind !== "ls" && kind !== "find" && r.chance(0.08);
		const file = r.pick(FILES[c.lang]);
		let args: Record<string, unknown>;
		let content: Array<TextContent | ImageContent>;
		let details: unknown;
		const text = (t: string): Array<TextContent | ImageContent> => [{ type: "text", text: t }];
		switch (kind) {
			case "read": {
				args = r.chance(0.2) ? { path: file, offset: r.int(1, 400), limit: r.int(80, 400) } : { path: file };
				if (fails) content = text(`ENOENT: no such file or directory, access '${this.project.cwd}/${file}'`);
				else if (!big && r.chance(0.04)) {
					args = { path: "docs/screenshot.png" };
					content = [
						{ type: "text", text: "Read image file [image/png]" },
						{ type: "image", mimeType: "image/png", data: pngOfSize(r, r.int(VOLUME.imageKB[0], VOLUME.imageKB[1]) * 768) },
					];
				} else {
					const kb = big ? r.int(VOLUME.bigKB[0], VOLUME.bigKB[1]) : r.int(VOLUME.readKB[0], VOLUME.readKB[1]);
					const body = codeOfSize(r, c.lang, kb * 1024);
					content = text(big || r.chance(0.1) ? `${body}\n\n[Showing lines 1-2000 of ${r.int(2100, 8000)}. Use offset=2001 to continue.]` : body);
				}
				break;
			}
			case "bash": {
				args = r.chance(0.25) ? { command: c.cmd, timeout: r.pick([30, 60, 120]) } : { command: c.cmd };
				if (fails)
					content = text(`${c.err}\n    at ${c.func} (${file}:${r.int(10, 400)}:${r.int(3, 40)})\n\nCommand exited with code ${r.pick([1, 1, 2, 137])}`);
				else {
					const kb = big ? r.int(VOLUME.bigKB[0], VOLUME.bigKB[1]) : r.int(VOLUME.bashKB[0], VOLUME.bashKB[1]);
					content = text(kb > 0 ? logOfSize(r, c.lang, kb * 1024) : `✓ ${c.func} (${r.int(2, 80)} ms)\n${r.int(1, 60)} passed`);
					if (big)
						details = { truncation: { truncated: true, truncatedBy: "bytes", outputBytes: kb * 1024 }, fullOutputPath: `/tmp/pi-bash-${r.chars(16, HEX)}.log` };
				}
				break;
			}
			case "edit": {
				const oldText = r.pick(CODE[c.lang]);
				const newText = `${oldText}\n${r.pick(CODE[c.lang])}`;
				args = { path: file, edits: [{ oldText, newText }] };
				if (fails) content = text(`Could not find the exact text in ${file}. The old text must match exactly including all whitespace and newlines.`);
				else {
					content = text(`Successfully replaced 1 block(s) in ${file}.`);
					const line = r.int(5, 300);
					details = { diff: `-${line} ${oldText}\n+${line} ${newText.replace("\n", `\n+${line + 1} `)}`, firstChangedLine: line };
				}
				break;
			}
			case "write": {
				const kb = big ? r.int(VOLUME.bigKB[0], VOLUME.bigKB[1]) : r.int(VOLUME.writeKB[0], VOLUME.writeKB[1]);
				const path = big ? `test/fixtures/${r.pick(["golden", "snapshot", "recorded"])}-${r.int(1, 99)}.${c.lang === "py" ? "py" : "ts"}` : file;
				const body = codeOfSize(r, c.lang, kb * 1024);
				args = { path, content: body };
				content = text(fails ? `EACCES: permission denied, open '${this.project.cwd}/${path}'` : `Successfully wrote ${body.length} bytes to ${path}`);
				break;
			}
			case "grep": {
				args = { pattern: c.func, path: "src" };
				content = text(
					fails
						? "Path not found: src"
						: Array.from({ length: r.int(1, 10) }, () => `${r.pick(FILES[c.lang])}:${r.int(1, 500)}: ${r.pick(CODE[c.lang])}`).join("\n"),
				);
				break;
			}
			case "find":
				args = { pattern: `**/*.${c.lang}` };
				content = text(FILES[c.lang].join("\n"));
				break;
			default:
				args = { path: "." };
				content = text(["src/", "test/", "node_modules/", "package.json", "README.md", ".gitignore"].join("\n"));
		}
		const call: ToolCall = { type: "toolCall", id, name: kind, arguments: args };
		const result: ToolResultMessage = { role: "toolResult", toolCallId: id, toolName: kind, content, isError: fails, timestamp: 0 };
		if (details !== undefined) result.details = details;
		return { call, result };
	}

	/** One prompt and the agent loop answering it: thinking, tool calls, tool results, a final reply. */
	turn(opts: { image?: boolean; big?: "write" | "read" | "bash"; error?: boolean } = {}): void {
		const r = this.rng;
		const c = this.ctx();
		this.user(c, { image: opts.image });
		const steps = r.int(VOLUME.steps[0], VOLUME.steps[1]);
		for (let s = 0; s < steps; s++) {
			this.tick(1500, 30_000);
			const content: AssistantMessage["content"] = [];
			if (r.chance(0.55))
				content.push(
					this.thinking(
						`${c.err} points at ${c.func}. ${r.pick(["Probably a missing await.", "Could be the pool size.", "The retry loop has no jitter.", "Maybe the migration did not run."])} Check ${r.pick(FILES[c.lang])} first.`,
					),
				);
			if (r.chance(0.45))
				content.push({
					type: "text",
					text: r.pick([`Let me look at \`${c.file}\`.`, `Running \`${c.cmd}\` to reproduce.`, "Checking the failing test.", "先看一下日志。"]),
				});
			const tools = [this.tool(c, s === 0 ? opts.big : undefined)];
			if (r.chance(0.25)) tools.push(this.tool(c, undefined));
			for (const t of tools) content.push(t.call);
			this.append(this.assistant(content, "toolUse"));
			for (const t of tools) {
				this.tick(50, 9000);
				t.result.timestamp = this.world.now();
				this.append(t.result);
			}
		}
		this.tick(2000, 40_000);
		if (opts.error) {
			this.append(
				this.assistant(
					[],
					"error",
					`429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`,
				),
			);
			return;
		}
		const content: AssistantMessage["content"] = [];
		if (r.chance(0.3)) content.push(this.thinking("Summarize what changed and what to verify."));
		content.push({ type: "text", text: r.pick(REPLIES)(c) });
		this.append(this.assistant(content, r.chance(0.02) ? "length" : "stop"));
	}

	/** A `!command` the user ran in pi's editor (bashExecution), sometimes excluded from context or cancelled. */
	bash(): void {
		const r = this.rng;
		this.tick(5_000, 60_000);
		const c = this.ctx();
		const cancelled = r.chance(0.06);
		const output = cancelled ? "^C\n" : `${logOfSize(r, c.lang, r.int(200, 4000))}\n`;
		this.append({
			role: "bashExecution",
			command: c.cmd,
			output,
			exitCode: cancelled ? undefined : r.pick([0, 0, 0, 1]),
			cancelled,
			truncated: false,
			timestamp: this.world.now(),
			excludeFromContext: r.chance(0.2) ? true : undefined,
		});
	}

	/** A compaction keeping the last one or two user turns, with pi's summary layout. */
	compact(): void {
		const onPath = new Set(this.sm.getBranch().map((e) => e.id));
		const users = this.userIds.filter((id) => onPath.has(id));
		if (users.length < 3) return;
		const kept = users[users.length - this.rng.int(1, 2)] as string;
		this.tick(5_000, 30_000);
		const p = this.project;
		const files = [this.rng.pick(FILES[p.lang]), this.rng.pick(FILES[p.lang])];
		const summary = `## Goal\nStop ${this.rng.pick(ERRORS)} in ${this.rng.pick(FUNCS)}.\n\n## Progress\n- [x] Reproduced with \`${this.rng.pick(COMMANDS[p.lang])}\`\n- [ ] Add a regression test\n\n## Key Decisions\n- Use retry_with_backoff with jitter instead of a fixed sleep\n\n<read-files>\n${files.join("\n")}\n</read-files>\n\n<modified-files>\n${files[0]}\n</modified-files>`;
		this.sm.appendCompaction(summary, kept, this.rng.int(80_000, 190_000), { readFiles: files, modifiedFiles: [files[0]] }, false);
	}

	/** A /tree rewind to before an earlier prompt, optionally leaving a branch summary; later turns branch off. */
	rewind(withSummary: boolean): void {
		const branch = this.sm.getBranch();
		const users = branch.filter((e) => e.type === "message" && e.message.role === "user");
		if (users.length < 2) return;
		const target = users[this.rng.int(1, users.length - 1)] as (typeof users)[number];
		this.tick(10_000, 90_000);
		if (withSummary && target.parentId !== null) {
			const summary = `The user explored a different branch before returning here.\n\n## Goal\nTry ${this.rng.pick(["a queue-based retry", "a schema migration first", "pinning the driver version"])}\n\n## Outcome\n${this.rng.pick(["The migration made it worse.", "Tests still failed with ECONNREFUSED.", "Too slow under load."])}`;
			this.sm.branchWithSummary(target.parentId, summary, { readFiles: [this.rng.pick(FILES[this.project.lang])], modifiedFiles: [] }, false);
		} else if (target.parentId === null) this.sm.resetLeaf();
		else this.sm.branch(target.parentId);
	}

	name(): void {
		this.tick(200, 3000);
		this.sm.appendSessionInfo(
			this.rng.pick(["Fix webhook retries", "Dashboard 内存泄漏", "Proxy pool exhaustion", "Invoice parser cleanup 🧾", "Migration 0042", "検索クエリの改善"]),
		);
	}

	label(): void {
		if (this.userIds.length === 0) return;
		this.tick(200, 3000);
		this.sm.appendLabelChange(this.rng.pick(this.userIds), this.rng.pick(["checkpoint", "good ✅", "before-refactor", "repro"]));
	}

	extensionNotes(): void {
		this.tick(50, 2000);
		this.sm.appendCustomMessageEntry("plan-mode", "[plan-mode] Read-only exploration: do not edit files until the plan is approved.", this.rng.chance(0.6));
		this.sm.appendCustomEntry("todo-state", { items: [{ text: `check ${this.rng.pick(FUNCS)}`, done: false }], version: 2 });
	}
}

/** Writes family `index` (its primary session and children); deterministic for (seed, index) alone. */
export function buildFamily(ctx: BuildContext, index: number): FamilyResult {
	const rng = new Rng(mixSeed(ctx.seed, index, 0xfa));
	// Own id stream and a start time fixed by the index: a family's bytes never depend on the families before it,
	// so corpora of different sizes share their first families and the build can be split across processes.
	ctx.world.reseedIds(mixSeed(ctx.seed, index, 0x1d));
	const start = EPOCH_MS + index * FAMILY_GAP_MS;
	ctx.world.setNow(start + rng.int(0, FAMILY_GAP_MS / 6));
	const project = rng.weighted(PROJECTS);
	const flat = rng.chance(0.03);
	const sm = SessionManager.create(project.cwd, flat ? ctx.flatDir : undefined);
	// Every RARE_EVERY-th family carries the rare identifier (armed for its second prompt), so each size has a
	// known, proportional number of carriers whatever the seed.
	const carrier = index % RARE_EVERY === RARE_EVERY - 3;
	const rareCarrier = { pending: false, planted: false };
	const convo = new Conversation(sm, project, rng, ctx.world, rng.weighted(MODELS), rareCarrier);
	convo.open(rng.pick(["off", "low", "medium", "high"]));
	const turns = rng.int(VOLUME.turns[0], VOLUME.turns[1]);
	const f = {
		image: rng.chance(VOLUME.imageRate),
		big: rng.chance(VOLUME.bigRate) ? rng.pick(["write", "read", "bash"] as const) : undefined,
		name: rng.chance(0.6),
		bash: rng.chance(0.3),
		compaction: turns >= 5 && rng.chance(0.3),
		rewind: rng.chance(0.35),
		summary: rng.chance(0.5),
		label: rng.chance(0.2),
		notes: rng.chance(0.2),
		modelSwitch: rng.chance(0.15),
		error: rng.chance(0.05),
	};
	for (let t = 0; t < turns; t++) {
		if (carrier && t === 1) rareCarrier.pending = true;
		convo.turn({ image: f.image && t === 0, big: t === Math.min(1, turns - 1) ? f.big : undefined, error: f.error && t === turns - 1 });
		if (t === 0 && f.name) convo.name();
		if (t === 1 && f.notes) convo.extensionNotes();
		if (t === 1 && f.label) convo.label();
		if (f.bash && rng.chance(0.4)) convo.bash();
		if (f.modelSwitch && t === turns >> 1) {
			convo.model = rng.weighted(MODELS);
			convo.world.advance(rng, 500, 5000);
			sm.appendModelChange(convo.model.provider, convo.model.model);
		}
		if (f.compaction && t === turns - 2) convo.compact();
		if (f.rewind && t === turns - 2) convo.rewind(f.summary);
	}
	const primary = sm.getSessionFile() as string;
	const files = [primary];

	// Children: /fork and /clone (createBranchedSession), --fork (forkFrom, copies every entry), newSession({parentSession}).
	const child = (run: (c: Conversation) => void, sm2: SessionManager, p: Project): void => {
		const cv = new Conversation(sm2, p, rng, ctx.world, convo.model, rareCarrier);
		run(cv);
		const file = sm2.getSessionFile();
		if (file && !files.includes(file)) files.push(file);
	};
	if (rng.chance(0.1)) {
		ctx.world.advance(rng, 60_000, 1_200_000);
		const src = SessionManager.open(primary);
		const users = src.getBranch().filter((e) => e.type === "message" && e.message.role === "user");
		const at = rng.pick(users).parentId;
		if (at) {
			src.createBranchedSession(at);
			child(
				(cv) => {
					for (let i = rng.int(1, 2); i > 0; i--) cv.turn();
				},
				src,
				project,
			);
		}
	}
	if (rng.chance(0.05)) {
		ctx.world.advance(rng, 60_000, 1_200_000);
		const src = SessionManager.open(primary);
		const leaf = src.getLeafId();
		if (leaf) {
			src.createBranchedSession(leaf);
			child((cv) => cv.turn(), src, project);
		}
	}
	if (rng.chance(0.05)) {
		ctx.world.advance(rng, 60_000, 1_200_000);
		const target = rng.chance(0.5) ? project : rng.weighted(PROJECTS);
		const forked = SessionManager.forkFrom(primary, target.cwd, flat ? ctx.flatDir : undefined);
		child((cv) => cv.turn(), forked, target);
	}
	if (rng.chance(0.03)) {
		ctx.world.advance(rng, 60_000, 1_200_000);
		const next = SessionManager.create(project.cwd, flat ? ctx.flatDir : undefined);
		next.newSession({ parentSession: primary });
		child(
			(cv) => {
				cv.open("medium");
				cv.turn();
			},
			next,
			project,
		);
	}
	return { files, rare: rareCarrier.planted, endMs: ctx.world.now() };
}

/** Where the flat (`sessionDir`-style) sessions go inside a corpus's agent dir. */
export function flatDirOf(agentDir: string): string {
	return join(agentDir, FLAT_SESSIONS_DIR);
}
