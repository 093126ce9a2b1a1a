/**
 * What the reducer asks of the world outside the explorer, done by the host's callbacks: a task on an event (App
 * reads what it needs, the launcher runs it), a suspend, a refresh of the index, a copy of a ref, the query history,
 * and quitting.
 */
import { useApp } from "ink";
import { type Dispatch, useEffect, useRef } from "react";
import type { ExplorerService } from "../core/explorer-service.js";
import { type TaskRequest, taskRequest } from "../prompts/task-loads.js";
import type { Action, State } from "../root/state.js";
import { useServiceLoad } from "./use-service-load.js";

/** What a task did, for the status bar. */
export interface TaskOutcome {
	text: string;
	tone: "info" | "warn" | "error";
}

/** The host's callbacks for what the explorer asks of the world outside it. */
export interface Requests {
	/** Copies a ref; what it returns (if anything) replaces the status line, so it can say what really happened. */
	onCopy?: ((text: string) => { text: string; copied: boolean } | undefined) | undefined;
	onExit?: ((code: number) => void) | undefined;
	/** Reads new session lines now (the refresh key). */
	onRefresh?: (() => void) | undefined;
	/**
	 * Runs a task outside the explorer (continue in pi, copy Markdown, pager, editor, export) with what App read for
	 * it; its answer is the status line. Without one (tests, no launcher) the status says the task is not available.
	 */
	onTask?: ((request: TaskRequest) => TaskOutcome | Promise<TaskOutcome>) | undefined;
	/** Stops the process for the shell's job control (Ctrl+Z); resolves once it runs again (`fg`). */
	onSuspend?: (() => Promise<void>) | undefined;
	/** The query history changed (a query was searched with): the launcher stores it. */
	onQueryHistory?: ((entries: readonly string[]) => void) | undefined;
}

const TASK_DELAY_MS = 60;

/** Hands the reducer's requests (task, suspend, refresh, copy, query history, exit) to the host's callbacks, read from the latest props. */
export function useRequests(service: ExplorerService, state: State, dispatch: Dispatch<Action>, props: Requests): void {
	const { exit } = useApp();
	const latest = {
		onCopy: props.onCopy,
		onExit: props.onExit,
		onRefresh: props.onRefresh,
		onTask: props.onTask,
		onSuspend: props.onSuspend,
		onQueryHistory: props.onQueryHistory,
	};
	const callbacks = useRef(latest);
	callbacks.current = latest;

	// A task on an event: read what it needs (the whole text, the branch), then hand it to the launcher.
	const task = state.task;
	useServiceLoad(
		task ? String(task.seq) : null,
		async (): Promise<Action> => {
			const seq = task?.seq ?? 0;
			const run = callbacks.current.onTask;
			if (!task || !run) return { type: "task-done", seq, text: "not available here: no launcher for tasks", tone: "warn" };
			const outcome = await run(await taskRequest(service, task));
			return { type: "task-done", seq, text: outcome.text, tone: outcome.tone };
		},
		(error) => ({ type: "task-done", seq: task?.seq ?? 0, text: `failed: ${error}`, tone: "error" }),
		dispatch,
		// Longer than Ink's frame interval (30 fps): the frame saying what starts is drawn before a program takes the
		// terminal, so the frame after it (the task's answer) differs from the last one drawn and Ink draws it whole.
		TASK_DELAY_MS,
	);
	// Ctrl+Z: after the frame saying so is drawn (as for a task), the launcher stops the process; on fg the next frame
	// ("back from the shell") differs from the last one drawn, so Ink draws it whole on the screen taken back.
	const suspend = state.suspend ?? 0;
	useEffect(() => {
		const run = callbacks.current.onSuspend;
		if (suspend === 0 || !run) return;
		const t = setTimeout(() => void run().then(() => dispatch({ type: "resumed" })), TASK_DELAY_MS);
		return () => clearTimeout(t);
	}, [suspend, dispatch]);
	const refresh = state.refresh;
	useEffect(() => {
		if (refresh > 0) callbacks.current.onRefresh?.();
	}, [refresh]);
	const copy = state.copy;
	useEffect(() => {
		if (!copy) return;
		const outcome = callbacks.current.onCopy?.(copy.text);
		if (outcome) dispatch({ type: "copy-done", text: outcome.text, copied: outcome.copied });
	}, [copy, dispatch]);
	// Before the exit effect: a query remembered by the key that quits is stored before the app unmounts.
	const remembered = state.recall?.entries;
	const firstRemembered = useRef(remembered);
	useEffect(() => {
		if (remembered && remembered !== firstRemembered.current) callbacks.current.onQueryHistory?.(remembered);
	}, [remembered]);
	const exitCode = state.exit;
	useEffect(() => {
		if (exitCode === null) return;
		callbacks.current.onExit?.(exitCode);
		exit();
	}, [exitCode, exit]);
}
