/** Whether FTS5 itself would accept a query as MATCH syntax: session_search answers what the seed's raw MATCH would. */
import type Database from "better-sqlite3";
import { openDatabase } from "./sqlite.js";

let probe: Database.Statement<[string]> | null = null;

/** FTS5's own complaint about `query` as a MATCH expression (an unbalanced quote, a bare operator), or null. */
export function ftsSyntaxError(query: string): string | null {
	if (probe === null) {
		// An empty in-memory table: parsing the expression is all FTS5 does here, whatever the index holds.
		const db = openDatabase(":memory:");
		db.exec("CREATE VIRTUAL TABLE probe USING fts5(text)");
		probe = db.prepare("SELECT 1 FROM probe WHERE probe MATCH ?");
	}
	try {
		probe.all(query);
		return null;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
}
