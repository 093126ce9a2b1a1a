/**
 * better-sqlite3 connections with its compiled addon named directly. The CLI's bundle holds better-sqlite3's
 * JavaScript (loading it as a package of separate CommonJS files cost a start of `pi-history search` more than its
 * query), and there the `bindings` helper could not find the addon: it looks beside the file that calls it.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";

let addon: string | object | undefined;

/** The addon's file where its install builds it, else what `bindings` finds from better-sqlite3's own folder. */
function nativeBinding(): string | object {
	if (addon !== undefined) return addon;
	const require = createRequire(import.meta.url);
	const dir = dirname(dirname(require.resolve("better-sqlite3")));
	const built = join(dir, "build", "Release", "better_sqlite3.node");
	if (existsSync(built)) addon = built;
	else {
		// A missing addon throws bindings' own error here, which nativeBindingHint (store-errors.ts) recognises.
		const bindings = createRequire(join(dir, "package.json"))("bindings") as (options: object) => object;
		addon = bindings({ bindings: "better_sqlite3.node", module_root: dir });
	}
	return addon;
}

/** Opens a better-sqlite3 connection (`new Database(path, options)`), its addon named directly. */
export function openDatabase(path: string, options: Database.Options = {}): Database.Database {
	// better-sqlite3 takes the addon itself too; its types name only a path.
	return new Database(path, { ...options, nativeBinding: nativeBinding() } as Database.Options);
}
