/**
 * What this machine charges for a page of memory touched for the first time: a fresh process fills one byte of each
 * 4 KiB page of a new 16 MiB buffer (zero pages the kernel maps on first touch), and reports the time per page and the
 * page faults it counted. A first run of anything (a fresh process, a query's first read of the index) pays this for
 * every page it touches, so tables from machines or hours where it differs cannot be compared.
 *   node dist/bench/page-touch.js
 */
import { report } from "./child.js";

const PAGE = 4096;
const PAGES = 4096;

const buffer = new Uint8Array(PAGE * PAGES);
const faultsBefore = process.resourceUsage().minorPageFault;
const started = performance.now();
for (let i = 0; i < buffer.length; i += PAGE) buffer[i] = 1;
const ms = performance.now() - started;
const faults = process.resourceUsage().minorPageFault - faultsBefore;
let sum = 0;
for (let i = 0; i < buffer.length; i += PAGE) sum += buffer[i] as number;
report("pageTouch", { pages: PAGES, usPerPage: (ms * 1000) / PAGES, faults, touched: sum });
