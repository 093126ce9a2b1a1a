/** Number formats and the plain-text grid every table of the bench is printed with (README takes it verbatim). */

export const MB = 1e6;
export const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "–");
export const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
export const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–");
export const thousands = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "–");
export const ms = (n: number) => (!Number.isFinite(n) ? "–" : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
export const times = (n: number) => (Number.isFinite(n) ? `${n >= 10 ? n.toFixed(0) : n.toFixed(1)}×` : "–");
export const pct = (n: number) => (Number.isFinite(n) ? `${(n * 100).toFixed(n >= 0.995 || n === 0 ? 0 : 1)}%` : "–");

/** Terminal columns of a string: CJK and fullwidth characters take two, so the CJK rows stay aligned. */
export function width(text: string): number {
	return text.length + (text.match(/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g)?.length ?? 0);
}

/**
 * A grid: first column left-aligned, the others right-aligned. A body row whose cells after the first are all empty
 * is a section title: it runs across the table and does not widen the first column.
 */
export function renderGrid(header: string[], body: string[][]): string {
	const isSection = (b: string[]) => b.slice(1).every((c) => c === "");
	const widths = header.map((h, i) => Math.max(width(h), ...body.filter((b) => !isSection(b)).map((b) => width(b[i] ?? ""))));
	const pad = (c: string, i: number) => " ".repeat(Math.max(0, (widths[i] as number) - width(c)));
	const line = (cells: string[]) =>
		cells
			.map((c, i) => (i === 0 ? c + pad(c, i) : pad(c, i) + c))
			.join(" │ ")
			.trimEnd();
	const sep = widths.map((w) => "─".repeat(w)).join("─┼─");
	return [line(header), sep, ...body.map((b) => (isSection(b) ? (b[0] as string) : line(b)))].join("\n");
}
