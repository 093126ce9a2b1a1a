/**
 * Seeded stand-ins for the three sources of nondeterminism in pi's SessionManager: `new Date()` (timestamps and
 * file names), `crypto.randomUUID()` (entry ids) and `crypto.getRandomValues()` (uuid v7 session ids).
 * Imports only node builtins, so it can run before pi is loaded (ESM evaluates imports first; the corpus
 * worker therefore installs this and only then imports pi dynamically).
 */
import nodeCrypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";

/** A small, fast seeded PRNG (sfc32) with the helpers the corpus builder needs. */
export class Rng {
	private a: number;
	private b: number;
	private c: number;
	private d: number;

	constructor(seed: number) {
		this.a = 0x6a09e667 ^ seed;
		this.b = 0xbb67ae85 ^ Math.imul(seed, 0x9e3779b1);
		this.c = 0x3c6ef372 ^ Math.imul(seed, 0x7feb352d);
		this.d = 0xa54ff53a;
		// sfc32 needs a few rounds before nearby seeds diverge.
		for (let i = 0; i < 16; i++) this.u32();
	}

	/** A uniform 32-bit unsigned integer. */
	u32(): number {
		const t = (((this.a + this.b) | 0) + this.d) | 0;
		this.d = (this.d + 1) | 0;
		this.a = this.b ^ (this.b >>> 9);
		this.b = (this.c + (this.c << 3)) | 0;
		this.c = (this.c << 21) | (this.c >>> 11);
		this.c = (this.c + t) | 0;
		return t >>> 0;
	}

	/** A uniform float in [0, 1). */
	next(): number {
		return this.u32() / 4294967296;
	}

	/** An integer in [lo, hi], both included. */
	int(lo: number, hi: number): number {
		return lo + Math.floor(this.next() * (hi - lo + 1));
	}

	/** True with probability p. */
	chance(p: number): boolean {
		return this.next() < p;
	}

	/** One element of a non-empty array. */
	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)] as T;
	}

	/** One element chosen by weight. */
	weighted<T extends { w: number }>(items: readonly T[]): T {
		let total = 0;
		for (const item of items) total += item.w;
		let r = this.next() * total;
		for (const item of items) {
			r -= item.w;
			if (r < 0) return item;
		}
		return items[items.length - 1] as T;
	}

	/** `n` pseudo-random bytes, filled four at a time. */
	bytes(n: number): Buffer {
		const out = Buffer.allocUnsafe(n);
		let i = 0;
		for (; i + 4 <= n; i += 4) out.writeUInt32LE(this.u32(), i);
		for (; i < n; i++) out[i] = this.u32() & 0xff;
		return out;
	}

	/** `n` characters from `alphabet`. */
	chars(n: number, alphabet: string): string {
		let s = "";
		for (let i = 0; i < n; i++) s += alphabet[this.u32() % alphabet.length];
		return s;
	}
}

/** Mixes integers into one 32-bit seed (murmur3 finalizer), so family i's streams do not depend on family i-1. */
export function mixSeed(...parts: number[]): number {
	let h = 0x811c9dc5;
	for (const p of parts) {
		h = Math.imul(h ^ (p >>> 0), 0x01000193);
		h ^= h >>> 16;
		h = Math.imul(h, 0x85ebca6b);
		h ^= h >>> 13;
		h = Math.imul(h, 0xc2b2ae35);
		h ^= h >>> 16;
	}
	return h >>> 0;
}

/** The virtual clock and the id stream that the patched globals read. */
export interface DeterministicWorld {
	/** Current virtual time in ms since the epoch. */
	now(): number;
	/** Sets the virtual clock. */
	setNow(ms: number): void;
	/** Advances the clock by a random amount in [lo, hi] ms drawn from `rng`; returns the new time. */
	advance(rng: Rng, lo: number, hi: number): number;
	/** Restarts the id stream from `seed` (one stream per session family keeps families independent). */
	reseedIds(seed: number): void;
}

let installed: DeterministicWorld | undefined;

/**
 * Replaces Date, crypto.randomUUID and crypto.getRandomValues with seeded versions; call before importing pi. The
 * clock starts at 0: the builder sets it (setNow) before each family.
 */
export function installDeterminism(): DeterministicWorld {
	if (installed) return installed;
	const RealDate = Date;
	let now = 0;
	let ids = new Rng(1);
	const randomUUID = (): `${string}-${string}-${string}-${string}-${string}` => {
		const b = ids.bytes(16);
		b[6] = ((b[6] as number) & 0x0f) | 0x40;
		b[8] = ((b[8] as number) & 0x3f) | 0x80;
		const h = b.toString("hex");
		return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
	};
	(nodeCrypto as { randomUUID: typeof randomUUID }).randomUUID = randomUUID;
	// pi does `import { randomUUID } from "crypto"`: named ESM bindings of builtins follow the patched object
	// only after this call.
	syncBuiltinESMExports();
	const web = globalThis.crypto as { getRandomValues: <T extends ArrayBufferView | null>(array: T) => T };
	web.getRandomValues = <T extends ArrayBufferView | null>(array: T): T => {
		if (array) {
			const u8 = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
			u8.set(ids.bytes(u8.length));
		}
		return array;
	};
	class VirtualDate extends RealDate {
		constructor(...args: unknown[]) {
			if (args.length === 0) super(now);
			else super(...(args as [string | number | Date]));
		}
		static override now(): number {
			return now;
		}
	}
	globalThis.Date = VirtualDate as DateConstructor;
	installed = {
		now: () => now,
		setNow: (ms) => {
			now = ms;
		},
		advance: (rng, lo, hi) => {
			now += rng.int(lo, hi);
			return now;
		},
		reseedIds: (seed) => {
			ids = new Rng(seed);
		},
	};
	return installed;
}
