"use client";

import { useState } from "react";
import { plural } from "@/lib/util/plural";
import viewerRow from "@/components/ui/viewer-row.module.css";
import rowStyles from "./replay-row.module.css";

/** Collapsed parts show this many lines (and at most COLLAPSED_CHARS characters) until expanded. */
export const COLLAPSED_LINES = 10;
const COLLAPSED_CHARS = 1_500;

export interface TextBlockProps {
  /** The text as loaded: a preview when `truncated`, else the full text. */
  text: string;
  length: number;
  lines: number;
  truncated: boolean;
  variant: "mono" | "prose";
  /** Fetches the full text when the preview was cut by the server. */
  loadFull?: () => Promise<string>;
}

/**
 * Trace content as text (never HTML), collapsed to ~10 lines with "show all". Expanding a preview
 * the server cut fetches the full text first.
 */
export function TextBlock({ text, length, lines, truncated, variant, loadFull }: TextBlockProps) {
  const [expanded, setExpanded] = useState(false);
  const [full, setFull] = useState<string>();
  const [state, setState] = useState<"idle" | "loading" | string>("idle");
  const source = full ?? text;
  const isLong = lines > COLLAPSED_LINES + 2 || length > COLLAPSED_CHARS || (truncated && full === undefined);
  if (source.length === 0) return null;
  if (!truncated && source.trim() === "")
    return <pre className={`${viewerRow.text} ${rowStyles.text} ${rowStyles.faint}`}>(blank: {JSON.stringify(source)})</pre>;
  const shown = !isLong || expanded ? source : collapse(source);
  const toggle = async () => {
    if (expanded) return setExpanded(false);
    if (truncated && full === undefined && loadFull) {
      setState("loading");
      try {
        setFull(await loadFull());
        setState("idle");
      } catch (error) {
        setState(error instanceof Error ? error.message : String(error));
        return;
      }
    }
    setExpanded(true);
  };
  return (
    <div className={viewerRow.textBlock}>
      <pre className={variant === "prose" ? `${viewerRow.text} ${rowStyles.text} ${rowStyles.prose}` : `${viewerRow.text} ${rowStyles.text}`}>
        {shown}
        {shown.length < length ? <span className={rowStyles.more}>…</span> : null}
      </pre>
      {isLong ? (
        <button
          type="button"
          className={`${viewerRow.toggle} ${rowStyles.toggle}`}
          onClick={() => void toggle()}
          disabled={state === "loading"}
          aria-expanded={expanded}
        >
          {state === "loading" ? "loading…" : expanded ? "show less" : `show all (${plural(lines, "line")}, ${plural(length, "char")})`}
        </button>
      ) : null}
      {state !== "idle" && state !== "loading" ? <span className={rowStyles.faint}> could not load: {state}</span> : null}
    </div>
  );
}

function collapse(text: string): string {
  let end = 0;
  for (let line = 0; line < COLLAPSED_LINES; line++) {
    const next = text.indexOf("\n", end);
    if (next === -1) {
      end = text.length;
      break;
    }
    end = next + 1;
  }
  return text.slice(0, Math.min(end, COLLAPSED_CHARS)).replace(/\n$/, "");
}
