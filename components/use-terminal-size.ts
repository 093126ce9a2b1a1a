/** The terminal size from Ink's stdout, updated on 'resize' (80×24 when stdout does not say). */
import { useStdout } from "ink";
import { useEffect, useState } from "react";
import type { Size } from "./explorer-service.js";

/** Size of the terminal Ink draws on; re-renders the caller when it changes. */
export function useTerminalSize(fallback: Size = { columns: 80, rows: 24 }): Size {
	const { stdout } = useStdout();
	const read = (): Size => ({ columns: stdout.columns || fallback.columns, rows: stdout.rows || fallback.rows });
	const [size, setSize] = useState(read);
	useEffect(() => {
		const onResize = () =>
			setSize((prev) => {
				const next = read();
				return prev.columns === next.columns && prev.rows === next.rows ? prev : next;
			});
		stdout.on("resize", onResize);
		return () => {
			stdout.off("resize", onResize);
		};
	}, [stdout]);
	return size;
}
