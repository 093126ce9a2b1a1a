/** What an exact read shows of an entry: its metadata without payloads, and each left-out part with a reason (I20). */
import type { OmittedPart } from "../shared/types.js";
import { LongText } from "../source/json-stream.js";
import type { ParsedEntry } from "../source/parse.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof LongText);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

function jsonBytes(value: unknown): number {
	try {
		// A long string of a streamed line counts by its bytes in the file (its middle is not in memory).
		let long = 0;
		const text = JSON.stringify(value, (_key, v: unknown) => {
			if (v instanceof LongText) {
				long += v.byteEnd - v.byteStart;
				return "";
			}
			return v;
		});
		return Buffer.byteLength(text ?? "") + long;
	} catch {
		// Too deep to serialize (hostile input): never pass it on as metadata.
		return Number.POSITIVE_INFINITY;
	}
}

function base64Bytes(data: unknown): number | undefined {
	if (typeof data !== "string" && !(data instanceof LongText)) return undefined;
	const end = typeof data === "string" ? data : data.tail;
	const pad = end.endsWith("==") ? 2 : end.endsWith("=") ? 1 : 0;
	return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

/** Fields that become fragments or omitted parts rather than metadata. */
const PAYLOAD_FIELDS = new Set(["content", "summary", "details", "data", "command", "output", "message"]);
const METADATA_FIELD_LIMIT = 4096;

function omitContent(content: unknown, path: string, out: OmittedPart[]): void {
	if (!Array.isArray(content)) return;
	content.forEach((block, i) => {
		if (!isObj(block)) return;
		const at = `${path}.${i}`;
		if (block.type === "image") {
			out.push({ path: at, reason: "image", mimeType: str(block.mimeType) ?? undefined, bytes: base64Bytes(block.data) });
		} else if (block.type === "thinking") {
			const reason = block.redacted === true ? "thinking (redacted)" : "thinking (private reasoning, never shown or indexed)";
			out.push({ path: `${at}.thinking`, reason, chars: typeof block.thinking === "string" || block.thinking instanceof LongText ? block.thinking.length : 0 });
			if (typeof block.thinkingSignature === "string")
				out.push({ path: `${at}.thinkingSignature`, reason: "signature", bytes: block.thinkingSignature.length });
		} else {
			for (const sig of ["textSignature", "thoughtSignature"]) {
				if (typeof block[sig] === "string") out.push({ path: `${at}.${sig}`, reason: "signature", bytes: (block[sig] as string).length });
			}
		}
	});
}

/** Exact metadata of an entry (everything but payloads) and the list of what a read leaves out, with reasons. */
export function describeEntry(entry: ParsedEntry): { metadata: Record<string, unknown>; omitted: OmittedPart[] } {
	const raw = entry.raw;
	const metadata: Record<string, unknown> = {};
	const omitted: OmittedPart[] = [];
	const copyScalars = (source: Obj, prefix: string, target: Record<string, unknown>) => {
		for (const [key, value] of Object.entries(source)) {
			if (PAYLOAD_FIELDS.has(key)) continue;
			const size = jsonBytes(value);
			if (size > METADATA_FIELD_LIMIT)
				omitted.push({
					path: `${prefix}${key}`,
					reason: Number.isFinite(size) ? "large field" : "too deeply nested",
					...(Number.isFinite(size) ? { bytes: size } : {}),
				});
			else target[key] = value;
		}
	};
	copyScalars(raw, "", metadata);
	if (entry.type === "message" && isObj(raw.message)) {
		const message: Record<string, unknown> = {};
		copyScalars(raw.message, "message.", message);
		metadata.message = message;
		omitContent(raw.message.content, "message.content", omitted);
		if (raw.message.details !== undefined)
			omitted.push({ path: "message.details", reason: "details (tool payload, not shown)", bytes: jsonBytes(raw.message.details) });
	}
	if (entry.type === "custom_message") omitContent(raw.content, "content", omitted);
	if (raw.details !== undefined) omitted.push({ path: "details", reason: "details (extension payload, not shown)", bytes: jsonBytes(raw.details) });
	if (entry.type === "custom" && raw.data !== undefined)
		omitted.push({ path: "data", reason: "custom data (extension state, never searchable)", bytes: jsonBytes(raw.data) });
	return { metadata, omitted };
}
