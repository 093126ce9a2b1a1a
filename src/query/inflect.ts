/**
 * English inflections of query words (issue 28): `fixed`, `fixes`, `fixing` and `fix` share one key, and the index's
 * vocabulary says which of a key's forms exist, so a word is expanded to those forms at query time and the index
 * stays as it is. Only plain words are inflected: identifiers, paths, error codes, numbers and CJK are not.
 */

const VOWEL = /[aeiouy]/;
/** Doubled final consonants that inflection adds (stop → stopped); l, s and z stay doubled (call, pass, buzz). */
const DOUBLED = /([b-df-hj-kmnp-rtv-xz])\1$/;

function undouble(stem: string): string {
	return DOUBLED.test(stem) && !/(?:ll|ss|zz)$/.test(stem) ? stem.slice(0, -1) : stem;
}

/** The inflection key of a folded word: its form without a plural, past or -ing ending and without a final e. */
export function inflectionKey(word: string): string {
	let s = word;
	if (s.length > 4 && s.endsWith("ies")) s = `${s.slice(0, -3)}y`;
	else if (s.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(s)) s = s.slice(0, -2);
	else if (s.length > 3 && s.endsWith("s") && !/(?:ss|us|is)$/.test(s)) s = s.slice(0, -1);
	else if (s.length > 4 && s.endsWith("ied")) s = `${s.slice(0, -3)}y`;
	else if (s.length > 3 && s.endsWith("ed") && !s.endsWith("eed") && VOWEL.test(s.slice(0, -2))) s = undouble(s.slice(0, -2));
	else if (s.length > 4 && s.endsWith("ing") && VOWEL.test(s.slice(0, -3))) s = undouble(s.slice(0, -3));
	return s.length >= 3 && s.endsWith("e") ? s.slice(0, -1) : s;
}

/** Every form a key's word can take (a superset; the vocabulary keeps the real ones), the key's own first. */
export function inflectedForms(key: string): string[] {
	const bases = [key, `${key}e`];
	const forms = new Set<string>();
	for (const b of bases) for (const end of ["", "s", "es", "ed", "d", "ing"]) forms.add(b + end);
	if (/[b-df-hj-np-tv-z]$/.test(key)) for (const end of ["ed", "ing"]) forms.add(key + key.at(-1) + end);
	if (key.endsWith("y")) for (const end of ["ies", "ied"]) forms.add(key.slice(0, -1) + end);
	return [...forms].filter((f) => f.length >= 3 && inflectionKey(f) === key);
}

/**
 * True for a word a person writes in prose: letters only, lowercase or capitalized, three letters or more. An
 * all-capitals code (EADDRINUSE), a camelCase identifier, anything with digits or punctuation is left exact.
 */
export function isInflectable(raw: string): boolean {
	return /^[A-Za-z][a-z]{2,}$/.test(raw);
}
