/** The opt-in `session_search` entry as pi loads it: `pi -e <package>/extension/session-search.ts` (src/extension/session-search.ts). */
import { loadEntry } from "./load.js";

export default loadEntry("session-search");
