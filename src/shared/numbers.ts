/** How counts are written everywhere (12,345): its own module so the first frame, the CLI and a query's notes need nothing else. */

/**
 * `n` with its digits grouped as en-US writes it ("12,345"), for integers without the locale data whose loading
 * makes a process's first toLocaleString call cost more than a search; other numbers go to toLocaleString.
 */
export function grouped(n: number): string {
	if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en-US");
	const digits = String(Math.abs(n));
	let out = "";
	for (let end = digits.length; end > 0; end -= 3) out = digits.slice(Math.max(0, end - 3), end) + (out === "" ? "" : `,${out}`);
	return n < 0 ? `-${out}` : out;
}
