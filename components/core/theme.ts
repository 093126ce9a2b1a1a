/**
 * How tones look: the SGR codes <Line/> writes around each segment, with a colorless variant for NO_COLOR and
 * --no-color (meaning then rides on weight and underline only: NO_COLOR forbids color, not emphasis).
 */
import { neutralizeLine } from "../../src/present/terminal-safe.js";
import type { StyledLine, Tone } from "./styled.js";

// SGR parameters per tone: 1 bold, 2 dim, 4 underline; 31 red, 32 green, 33 yellow, 35 magenta, 36 cyan.
const COLOR: Record<Tone, string> = {
	plain: "",
	dim: "2",
	bold: "1",
	match: "1;33",
	error: "31",
	warn: "33",
	accent: "36",
	ok: "32",
	key: "1;36",
	title: "1",
	banner: "1;35",
};

const MONO: Record<Tone, string> = {
	plain: "",
	dim: "2",
	bold: "1",
	match: "1;4",
	error: "1",
	warn: "",
	accent: "",
	ok: "",
	key: "1",
	title: "1",
	banner: "1",
};

/** The SGR escape that starts a tone (and inverse, 7), or "" for plain text. */
export function toneAnsi(tone: Tone | undefined, color: boolean, inverse: boolean): string {
	const codes = [(color ? COLOR : MONO)[tone ?? "plain"], inverse ? "7" : ""].filter((c) => c !== "").join(";");
	return codes ? `\u001b[${codes}m` : "";
}

/**
 * One styled line as a terminal string: each segment in its tone's SGR codes. Every field drawn (session names,
 * labels, cwds, bodies) is session text: controls become symbols here (I21).
 */
export function lineAnsi(line: StyledLine, color: boolean): string {
	let text = "";
	for (const s of line) {
		const open = toneAnsi(s.tone, color, s.inverse === true);
		const safe = neutralizeLine(s.text);
		text += open ? `${open}${safe}\u001b[0m` : safe;
	}
	return text;
}
