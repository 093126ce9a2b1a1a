/** Whether pi-history writes colors: not with --no-color, NO_COLOR (any value), nor on a terminal that has none (TERM=dumb). */

/** True unless colors were turned off (`flag` false, NO_COLOR set) or the terminal says it has none (TERM=dumb). */
export function colorWanted(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
	return flag !== false && !env.NO_COLOR && env.TERM !== "dumb";
}
