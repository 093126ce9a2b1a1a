/**
 * Copying a ref, and saying truthfully what happened. A system clipboard tool (pbcopy, wl-copy, xclip, xsel,
 * clip.exe) either succeeds or fails; OSC 52 is a request the terminal may ignore, and inside tmux it never reaches
 * the outer terminal unless tmux's `set-clipboard` is `on`. The message says which of these happened.
 */
import { spawnSync } from "node:child_process";

/** What a copy did: a line for the status bar, and whether the text surely reached a clipboard. */
export interface CopyOutcome {
	text: string;
	copied: boolean;
}

/** Copies text to the terminal's clipboard with OSC 52 (ansi-escapes has no OSC 52). */
export function osc52(text: string): string {
	return `\u001b]52;c;${Buffer.from(text, "utf8").toString("base64")}\u0007`;
}

/** The clipboard tools worth trying here, in order. */
function tools(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Array<[string, string[]]> {
	if (platform === "darwin") return [["pbcopy", []]];
	if (platform === "win32") return [["clip", []]];
	const out: Array<[string, string[]]> = [];
	if (env.WAYLAND_DISPLAY) out.push(["wl-copy", []]);
	if (env.DISPLAY) out.push(["xclip", ["-selection", "clipboard"]], ["xsel", ["--clipboard", "--input"]]);
	if (env.WSL_DISTRO_NAME) out.push(["clip.exe", []]);
	return out;
}

/** tmux's set-clipboard option ("on", "external", "off"), or null outside tmux. */
function tmuxClipboard(env: NodeJS.ProcessEnv): string | null {
	if (!env.TMUX) return null;
	const r = spawnSync("tmux", ["show-options", "-gv", "set-clipboard"], { encoding: "utf8", timeout: 1000, env });
	return r.status === 0 ? r.stdout.trim() : "unknown";
}

/** Copies `ref`: a clipboard tool if one works, else OSC 52 when it can arrive; the outcome says which, or that it did not. */
export function copyRef(ref: string, write: (s: string) => void, env: NodeJS.ProcessEnv = process.env, platform = process.platform): CopyOutcome {
	for (const [cmd, args] of tools(env, platform)) {
		const r = spawnSync(cmd, args, { input: ref, timeout: 2000, stdio: ["pipe", "ignore", "ignore"], env });
		if (r.status === 0) return { text: `copied ref ${ref} with ${cmd}`, copied: true };
	}
	const tmux = tmuxClipboard(env);
	if (tmux !== null && tmux !== "on")
		return { text: `not copied: tmux's set-clipboard is "${tmux}" and no clipboard tool worked; select it: ${ref}`, copied: false };
	write(osc52(ref));
	return { text: `sent ref ${ref} to the terminal's clipboard (OSC 52; some terminals ignore it)`, copied: false };
}

/**
 * Copies any text (`what` names it in the message, e.g. "the event as Markdown"): a clipboard tool if one works,
 * else OSC 52 when it can arrive; the outcome says which, or that nothing was copied.
 */
export function copyText(
	text: string,
	what: string,
	write: (s: string) => void,
	env: NodeJS.ProcessEnv = process.env,
	platform = process.platform,
): CopyOutcome {
	for (const [cmd, args] of tools(env, platform)) {
		const r = spawnSync(cmd, args, { input: text, timeout: 2000, stdio: ["pipe", "ignore", "ignore"], env });
		if (r.status === 0) return { text: `copied ${what} with ${cmd}`, copied: true };
	}
	const tmux = tmuxClipboard(env);
	if (tmux !== null && tmux !== "on") return { text: `not copied: tmux's set-clipboard is "${tmux}" and no clipboard tool worked (${what})`, copied: false };
	write(osc52(text));
	return { text: `sent ${what} to the terminal's clipboard (OSC 52; some terminals ignore it or cap its size)`, copied: false };
}
