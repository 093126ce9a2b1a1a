/** Setup file of the projects whose tests use dist/: each test file starts once this run's build is over. */
import { inject } from "vitest";
import { waitForBuild } from "./build-signal.js";

await waitForBuild(inject("distBuild"));
