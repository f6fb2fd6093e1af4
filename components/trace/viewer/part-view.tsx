"use client";

import { useMemo, useState } from "react";
import type { PartView } from "@/server/trace/session/types";
import { CollapsibleText } from "./collapsible-text";
import { formatArguments } from "./format-arguments";
import viewerRow from "@/components/ui/viewer-row.module.css";
import textStyles from "./timeline-text.module.css";
import styles from "./part-view.module.css";

/** Where a link inside a message points. */
export interface JumpTarget {
  message: number;
  part?: number;
  objectId?: string;
  callId?: string;
}

export interface PartBlockProps {
  part: PartView;
  message: number;
  partIndex: number;
  isHighlighted: boolean;
  expanded: boolean;
  loadingFull: boolean;
  needle: string | undefined;
  onToggle(expand: boolean): void;
  onJump(target: JumpTarget): void;
}

/** One part of a message, as text only; tool calls and results link to each other. */
export function PartBlock(props: PartBlockProps) {
  const { part, isHighlighted, expanded, loadingFull, needle, onToggle, onJump } = props;
  const text = (value: string, capped: { lines: number; length: number; truncated: boolean }, variant: "mono" | "prose") => (
    <CollapsibleText text={value} {...capped} expanded={expanded} loading={loadingFull} onToggle={onToggle} variant={variant} needle={needle} />
  );
  const common = {
    className: `${viewerRow.part} ${styles.part}`,
    "data-part-index": props.partIndex,
    "data-highlighted": isHighlighted || undefined,
  };

  switch (part.type) {
    case "text":
      return (
        <div {...common} data-kind="text">
          {text(part.text, part, "prose")}
        </div>
      );
    case "reasoning":
      return (
        <div {...common} data-kind="reasoning">
          <div className={`${viewerRow.partHead} ${styles.partHead}`}>
            <span className={`${viewerRow.partKind} ${styles.partKind}`}>reasoning</span>
          </div>
          {text(part.text, part, "prose")}
        </div>
      );
    case "tool_call":
      return <ToolCallBlock {...props} part={part} common={common} />;
    case "tool_result":
      return (
        <div {...common} data-kind="tool_result" data-object-id={part.objectId} data-error={part.isError || undefined}>
          <div className={`${viewerRow.partHead} ${styles.partHead}`}>
            <span className={`${viewerRow.partKind} ${styles.partKind}`}>result</span>
            {part.objectId ? <span className={`${viewerRow.objectId} ${textStyles.objectId}`}>{part.objectId}</span> : null}
            {part.name ? <span className={`${viewerRow.toolName} ${styles.toolName}`}>{part.name}</span> : null}
            {part.isError ? <span className={`${viewerRow.errorPill} ${styles.errorPill}`}>error</span> : null}
            {part.orphan ? <span className={textStyles.faint}>orphan (no call)</span> : null}
            {part.callMessage !== undefined ? (
              <button
                type="button"
                className={styles.link}
                onClick={() => onJump({ message: part.callMessage!, callId: part.callId })}
                title={`go to the call in message #${part.callMessage}`}
              >
                ↑ call #{part.callMessage}
              </button>
            ) : null}
          </div>
          {text(part.content, part, "mono")}
        </div>
      );
    case "image":
      return (
        <div {...common} data-kind="image">
          <span className={styles.placeholder}>
            [image{part.mediaType ? ` ${part.mediaType}` : ""}
            {part.bytes !== undefined ? `, ${formatBytes(part.bytes)}` : ""}: payload not kept]
          </span>
        </div>
      );
    case "other":
      return (
        <div {...common} data-kind="other">
          <div className={`${viewerRow.partHead} ${styles.partHead}`}>
            <span className={`${viewerRow.partKind} ${styles.partKind}`}>{part.kind}</span>
          </div>
          {part.text !== undefined ? text(part.text, part, "mono") : null}
        </div>
      );
  }
}

/**
 * A tool call: name, call id, a link to its result, and the arguments — shown as `key: value`
 * fields when they are a JSON object (see formatArguments), with a toggle back to the raw JSON.
 */
function ToolCallBlock(props: PartBlockProps & { part: Extract<PartView, { type: "tool_call" }>; common: Record<string, unknown> }) {
  const { part, common, expanded, loadingFull, needle, onToggle, onJump } = props;
  const [raw, setRaw] = useState(false);
  const formatted = useMemo(() => formatArguments(part.arguments, !part.truncated), [part.arguments, part.truncated]);
  const showRaw = raw || formatted === undefined;
  const text = showRaw ? part.arguments : formatted;
  return (
    <div {...common} data-kind="tool_call" data-call-id={part.id}>
      <div className={`${viewerRow.partHead} ${styles.partHead}`}>
        <span className={`${viewerRow.partKind} ${styles.partKind}`}>call</span>
        <span className={`${viewerRow.toolName} ${styles.toolName}`}>{part.name}</span>
        <span className={textStyles.faintMono} title="call id">
          {part.id}
        </span>
        {part.resultMessage !== undefined ? (
          <button
            type="button"
            className={styles.link}
            onClick={() => onJump({ message: part.resultMessage!, ...(part.resultObjectId ? { objectId: part.resultObjectId } : {}) })}
            title={`go to the result in message #${part.resultMessage}`}
          >
            → {part.resultObjectId ?? `result #${part.resultMessage}`}
          </button>
        ) : (
          <span className={textStyles.faint}>no result</span>
        )}
        {formatted !== undefined ? (
          <button
            type="button"
            className={`${styles.link} ${styles.pushRight}`}
            onClick={() => setRaw(!raw)}
            aria-pressed={raw}
            title="show the arguments exactly as the trace recorded them"
          >
            {raw ? "fields" : "raw json"}
          </button>
        ) : null}
      </div>
      {text.length > 0 ? (
        <CollapsibleText
          text={text}
          lines={showRaw ? part.lines : part.truncated ? undefined : countLines(text)}
          length={showRaw || part.truncated ? part.length : text.length}
          truncated={part.truncated}
          expanded={expanded}
          loading={loadingFull}
          onToggle={onToggle}
          variant="mono"
          needle={needle}
        />
      ) : null}
    </div>
  );
}

/** Lines as the server counts them (a trailing newline opens no line). */
function countLines(text: string): number {
  if (text.length === 0) return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
