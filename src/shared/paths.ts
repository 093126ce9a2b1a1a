/** Path syntax every layer shares: session cwds may be written the Windows way even when we run elsewhere. */

/** True for paths written the Windows way (`C:\…`, `C:/…`, `\\server\share`). */
export function isWindowsPath(p: string): boolean {
	return /^[A-Za-z]:([\\/]|$)/.test(p) || p.startsWith("\\\\");
}
