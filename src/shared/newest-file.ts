/** The newest modification time of the files of a folder tree, to tell whether a build is older than its sources. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The newest modification time of the files under `dir` whose name matches `name` (0 when none can be read). */
export function newestFile(dir: string, name: RegExp): number {
	let found = 0;
	try {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) found = Math.max(found, newestFile(path, name));
			else if (name.test(entry.name)) found = Math.max(found, statSync(path).mtimeMs);
		}
	} catch {
		// an unreadable folder adds nothing
	}
	return found;
}
