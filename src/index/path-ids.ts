/**
 * Row ids met walking up a session's path (append-classify.ts): a branch off an old entry of a huge session moves
 * millions of them off the path, and a Set of millions of numbers took about 40 bytes each. Walking up, row ids
 * descend (a parent comes before its child in a file, and row ids follow file order), so they are kept as a
 * descending array, 4 bytes each, and looked up by binary search; a walk that meets an id out of that order (a file
 * whose parent comes after its child) goes on in a Set.
 */
export class PathIds implements Iterable<number> {
	private ids = new Int32Array(64);
	private count = 0;
	private set: Set<number> | null = null;

	get size(): number {
		return this.set?.size ?? this.count;
	}

	add(id: number): void {
		if (this.set) {
			this.set.add(id);
			return;
		}
		const last = this.count > 0 ? (this.ids[this.count - 1] as number) : Number.POSITIVE_INFINITY;
		if (id === last) return;
		if (id > last || !Number.isInteger(id) || id < -(2 ** 31) || id >= 2 ** 31) {
			this.set = new Set(this.ids.subarray(0, this.count));
			this.set.add(id);
			return;
		}
		if (this.count === this.ids.length) {
			const more = new Int32Array(this.count * 2);
			more.set(this.ids);
			this.ids = more;
		}
		this.ids[this.count++] = id;
	}

	has(id: number): boolean {
		if (this.set) return this.set.has(id);
		let lo = 0;
		let hi = this.count - 1;
		while (lo <= hi) {
			const mid = (lo + hi) >> 1;
			const v = this.ids[mid] as number;
			if (v === id) return true;
			if (v > id) lo = mid + 1;
			else hi = mid - 1;
		}
		return false;
	}

	/** The least id (undefined: none). */
	min(): number | undefined {
		if (this.set) {
			let least: number | undefined;
			for (const id of this.set) if (least === undefined || id < least) least = id;
			return least;
		}
		return this.count > 0 ? (this.ids[this.count - 1] as number) : undefined;
	}

	/** The ids in the order opposite to their adds (a walk up a path, back down it). */
	*reversed(): Generator<number> {
		if (this.set) {
			yield* [...this.set].reverse();
			return;
		}
		for (let k = this.count - 1; k >= 0; k--) yield this.ids[k] as number;
	}

	[Symbol.iterator](): Iterator<number> {
		return this.set ? this.set.values() : this.ids.subarray(0, this.count).values();
	}
}
