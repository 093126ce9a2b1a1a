/**
 * A client for `pi --mode rpc` (pi 0.73.1 and 1.6 speak the same LF-only JSONL): send commands and await their
 * responses, await the end of an agent turn, end pi. A safety timer kills a hung pi on a busy machine; it is a net,
 * not a measure.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

/** One RPC line from pi. */
export type RpcEvent = Record<string, unknown>;

/** A running pi in RPC mode. */
export interface RpcPi {
	/** Sends a command and resolves with its response; rejects when pi answers `success: false`. */
	send(cmd: RpcEvent): Promise<RpcEvent>;
	/** Sends a prompt and resolves when the agent's turn has ended. */
	prompt(message: string): Promise<void>;
	/** Closes pi's stdin and resolves when pi has exited. */
	end(): Promise<void>;
	/** Ends pi with SIGTERM and resolves when it has exited. */
	stop(): Promise<void>;
	/** Resolves when pi exits, rejects when it fails to start or the safety timer fires. */
	readonly closed: Promise<void>;
	/** What pi wrote to stderr so far. */
	stderr(): string;
}

/** Starts `node cli args…` in RPC mode (the args carry `--mode rpc`) in `cwd` with `env`. */
export function startRpc(node: string, cli: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, safetyMs = 300_000): RpcPi {
	const child: ChildProcessWithoutNullStreams = spawn(node, [cli, ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
	const waiters = new Map<string, (ev: RpcEvent) => void>();
	const turnEnds: Array<() => void> = [];
	let buffer = "";
	let err = "";
	let seq = 0;
	const closed = new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`pi rpc timed out; stderr: ${err.slice(-2000)}`));
		}, safetyMs);
		child.on("error", (e) => {
			clearTimeout(timer);
			reject(e);
		});
		child.on("close", () => {
			clearTimeout(timer);
			resolve();
		});
	});
	// A caller that only awaits a response still sees a failure through `send`; this keeps an unawaited one quiet.
	closed.catch(() => {});
	child.stderr.on("data", (d: Buffer) => (err += d.toString()));
	child.stdout.on("data", (d: Buffer) => {
		buffer += d.toString();
		for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
			const line = buffer.slice(0, nl);
			buffer = buffer.slice(nl + 1);
			let ev: RpcEvent;
			try {
				ev = JSON.parse(line) as RpcEvent;
			} catch {
				continue;
			}
			if (ev.type === "response" && typeof ev.id === "string") waiters.get(ev.id)?.(ev);
			if (ev.type === "agent_end") turnEnds.shift()?.();
		}
	});
	const send = (cmd: RpcEvent) =>
		new Promise<RpcEvent>((resolve, reject) => {
			const id = `c${++seq}`;
			waiters.set(id, (ev) => (ev.success === false ? reject(new Error(`${String(cmd.type)} failed: ${JSON.stringify(ev.error)}`)) : resolve(ev)));
			closed.then(() => reject(new Error(`pi exited before answering ${String(cmd.type)}; stderr: ${err.slice(-2000)}`)), reject);
			child.stdin.write(`${JSON.stringify({ id, ...cmd })}\n`);
		});
	return {
		send,
		async prompt(message: string) {
			const ended = new Promise<void>((resolve) => turnEnds.push(resolve));
			await send({ type: "prompt", message });
			await Promise.race([ended, closed.then(() => Promise.reject(new Error(`pi exited during a turn; stderr: ${err.slice(-2000)}`)))]);
		},
		end() {
			child.stdin.end();
			return closed;
		},
		stop() {
			child.kill("SIGTERM");
			return closed;
		},
		closed,
		stderr: () => err,
	};
}
