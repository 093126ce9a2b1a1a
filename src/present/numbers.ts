/** How counts are written (12,345), for the faces: components/ reach src/ only through src/present and the shared types. */
export { grouped } from "../shared/numbers.js";
