"use client";

import { Fragment, type ReactNode } from "react";
import { plural } from "@/lib/util/plural";
import { withRedactionMarkers } from "./redaction-marker";
import viewerRow from "@/components/ui/viewer-row.module.css";
import partStyles from "./part-view.module.css";
import textStyles from "./timeline-text.module.css";

/** Long outputs show this many lines until expanded. */
export const COLLAPSED_LINES = 12;
/** …but only when that hides a few lines at least (a button that reveals one line is noise). */
const COLLAPSE_FROM_LINES = COLLAPSED_LINES + 4;
/** …and at most this many characters (one 50 kB line of minified JSON is still "long"). */
export const COLLAPSED_CHARS = 1800;

export interface CollapsibleTextProps {
  /** The text as loaded: a preview (`truncated`) or the full text. */
  text: string;
  /** Lines and length of the full text (from the server); lines unknown for reformatted previews. */
  lines: number | undefined;
  length: number;
  truncated: boolean;
  expanded: boolean;
  /** True while the full message is being fetched. */
  loading?: boolean;
  onToggle(expand: boolean): void;
  variant: "mono" | "prose";
  /** Case-insensitive search term to mark. */
  needle?: string | undefined;
}

/**
 * Text rendered as text (never HTML), with a marker where a secret was redacted: collapsed to COLLAPSED_LINES lines with a "show all (N lines)"
 * toggle. Expanding a preview that the server cut asks the owner to fetch the full message.
 */
export function CollapsibleText(props: CollapsibleTextProps) {
  const { text, lines, length, truncated, expanded, loading, onToggle, variant, needle } = props;
  const isLong = (lines ?? 0) > COLLAPSE_FROM_LINES || truncated || length > COLLAPSED_CHARS;
  if (!truncated && text.length > 0 && text.trim() === "") {
    return <span className={textStyles.faint}>(blank text: {describeBlank(text)})</span>;
  }
  const shown = !isLong || (expanded && !truncated) ? text : collapseText(text);
  const Tag = variant === "mono" ? "pre" : "div";
  return (
    <div className={viewerRow.textBlock}>
      <Tag className={variant === "mono" ? `${viewerRow.text} ${partStyles.mono}` : partStyles.prose}>
        {withRedactionMarkers(shown, (segment, key) => (
          <Fragment key={key}>{highlight(segment, needle)}</Fragment>
        ))}
        {isLong && shown.length < length && text[shown.length] !== "\n" ? <span className={partStyles.fade}>…</span> : null}
      </Tag>
      {isLong ? (
        <button
          type="button"
          className={`${viewerRow.toggle} ${partStyles.toggle}`}
          onClick={() => onToggle(!expanded)}
          disabled={loading}
          aria-expanded={expanded && !truncated}
        >
          {loading ? "loading…" : expanded && !truncated ? "show less" : `show all (${sizeLabel(lines, length)})`}
        </button>
      ) : null}
    </div>
  );
}

function sizeLabel(lines: number | undefined, length: number): string {
  const chars = plural(length, "char");
  if (lines === undefined) return chars;
  const lineText = plural(lines, "line");
  return lines <= COLLAPSE_FROM_LINES ? `${lineText}, ${chars}` : lineText;
}

function describeBlank(text: string): string {
  const newlines = text.split("\n").length - 1;
  return newlines > 0 ? plural(newlines, "newline") : plural(text.length, "space");
}

/** The first COLLAPSED_LINES lines, at most COLLAPSED_CHARS characters. */
export function collapseText(text: string): string {
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

/** Splits `text` around case-insensitive occurrences of `needle`, marking them. */
export function highlight(text: string, needle: string | undefined): ReactNode {
  if (!needle || needle.length < 2) return text;
  const lower = text.toLowerCase();
  const target = needle.toLowerCase();
  const out: ReactNode[] = [];
  let from = 0;
  for (let at = lower.indexOf(target); at !== -1 && out.length < 400; at = lower.indexOf(target, from)) {
    if (at > from) out.push(text.slice(from, at));
    out.push(<mark key={at}>{text.slice(at, at + target.length)}</mark>);
    from = at + target.length;
  }
  if (out.length === 0) return text;
  out.push(text.slice(from));
  return out;
}
