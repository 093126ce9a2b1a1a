/** How tones look: Ink <Text> props per tone, with a colorless variant for NO_COLOR and --no-color. */
import type { Tone } from "./styled.js";

/** The subset of Ink's <Text> props a tone sets. */
export interface ToneProps {
	color?: string;
	bold?: boolean;
	dimColor?: boolean;
	underline?: boolean;
}

const COLOR: Record<Tone, ToneProps> = {
	plain: {},
	dim: { dimColor: true },
	bold: { bold: true },
	match: { color: "yellow", bold: true },
	error: { color: "red" },
	warn: { color: "yellow" },
	accent: { color: "cyan" },
	ok: { color: "green" },
	key: { color: "cyan", bold: true },
	title: { bold: true },
	banner: { color: "magenta", bold: true },
};

// Without color, meaning rides on weight and underline only (NO_COLOR forbids color, not emphasis).
const MONO: Record<Tone, ToneProps> = {
	plain: {},
	dim: { dimColor: true },
	bold: { bold: true },
	match: { bold: true, underline: true },
	error: { bold: true },
	warn: {},
	accent: {},
	ok: {},
	key: { bold: true },
	title: { bold: true },
	banner: { bold: true },
};

/** Ink props for a tone. */
export function toneProps(tone: Tone | undefined, color: boolean): ToneProps {
	return (color ? COLOR : MONO)[tone ?? "plain"];
}

const FG: Record<string, number> = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, white: 37, gray: 90 };

/** The SGR escape that starts a tone (and inverse), or "" for plain text. */
export function toneAnsi(tone: Tone | undefined, color: boolean, inverse: boolean): string {
	const p = toneProps(tone, color);
	const codes: number[] = [];
	if (p.bold) codes.push(1);
	if (p.dimColor) codes.push(2);
	if (p.underline) codes.push(4);
	if (inverse) codes.push(7);
	if (p.color && FG[p.color] !== undefined) codes.push(FG[p.color] as number);
	return codes.length ? `\u001b[${codes.join(";")}m` : "";
}
