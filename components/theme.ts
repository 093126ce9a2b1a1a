/**
 * How tones look: the SGR codes <Line/> writes around each segment, with a colorless variant for NO_COLOR and
 * --no-color (meaning then rides on weight and underline only: NO_COLOR forbids color, not emphasis).
 */
import type { Tone } from "./styled.js";

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
