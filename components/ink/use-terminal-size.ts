/** The terminal size from Ink's stdout, updated on 'resize' (80×24 when stdout does not say). */
import { useStdout } from "ink";
import { useEffect, useState } from "react";
import type { Size } from "../core/explorer-service.js";

/** Size of the terminal Ink draws on; re-renders the caller when it changes. */
export function useTerminalSize(fallback: Size = { columns: 80, rows: 24 }): Size {
	const { stdout } = useStdout();
	const { columns, rows } = fallback;
	const [size, setSize] = useState((): Size => ({ columns: stdout.columns || columns, rows: stdout.rows || rows }));
	useEffect(() => {
		const onResize = () =>
			setSize((prev) => {
				const next = { columns: stdout.columns || columns, rows: stdout.rows || rows };
				return prev.columns === next.columns && prev.rows === next.rows ? prev : next;
			});
		stdout.on("resize", onResize);
		return () => {
			stdout.off("resize", onResize);
		};
	}, [stdout, columns, rows]);
	return size;
}
