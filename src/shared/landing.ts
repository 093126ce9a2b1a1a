/**
 * The environment pi-history sets for the pi it starts on an event (the explorer's `c`), which our extension reads
 * at pi's start to move there: the entry id, and the session file it belongs to (a landing for another file is ignored).
 */
export const LAND_ENV = { entry: "PI_EVENT_SEARCH_LAND", file: "PI_EVENT_SEARCH_LAND_FILE" } as const;
