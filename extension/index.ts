/** The Pi extension as pi loads it from this package: `event_search`, `event_read`, `event_trace` (src/extension/index.ts). */
import { loadEntry } from "./load.js";

export default loadEntry("index");
