"use client";

import { memo, useEffect, useRef } from "react";
import { formatDateTime } from "@/lib/util/format-date-time";
import type { MessageView, PartView } from "@/server/trace/session/types";
import { collapseText } from "./collapsible-text";
import { estimateMessageHeight } from "./timeline-items";
import { PartBlock, type JumpTarget } from "./part-view";
import { TokenBar } from "./token-bar";
import type { MessageSlot } from "./use-message-windows";
import viewerRow from "@/components/ui/viewer-row.module.css";
import textStyles from "./timeline-text.module.css";
import styles from "./message-row.module.css";

const ROLE_OF_CODE: Record<string, string> = { s: "system", u: "user", a: "assistant", t: "tool" };

/** What the viewer is pointing at: a message, optionally one part of it, with a term to find. */
export interface Highlight {
  message: number;
  part?: number;
  objectId?: string;
  callId?: string;
  needle?: string;
  /** Changes on every jump so the row re-scrolls its part into view. */
  seq: number;
}

export interface MessageRowProps {
  index: number;
  roleCode: string;
  tokens: number;
  maxTokens: number;
  slot: MessageSlot;
  isActive: boolean;
  highlight: Highlight | undefined;
  needle: string | undefined;
  isExpanded(message: number, part: number): boolean;
  loadingFull: boolean;
  onTogglePart(message: number, part: number, expand: boolean, truncated: boolean): void;
  onJump(target: JumpTarget): void;
  onRetry(message: number): void;
}

/**
 * One message of the timeline: header facts, then its parts (or a placeholder while loading).
 * Memoised: the timeline re-renders on every scroll frame, a row only when its own data changes.
 */
export const MessageRow = memo(MessageRowView, (a, b) => {
  for (const key of Object.keys(b) as (keyof MessageRowProps)[]) {
    if (key === "slot" ? !sameSlot(a.slot, b.slot) : a[key] !== b[key]) return false;
  }
  return true;
});

function sameSlot(a: MessageSlot, b: MessageSlot): boolean {
  if (a.status !== b.status) return false;
  if (a.status === "ready" && b.status === "ready") return a.message === b.message;
  if (a.status === "error" && b.status === "error") return a.error === b.error;
  return true;
}

function MessageRowView(props: MessageRowProps) {
  const { index, roleCode, tokens, maxTokens, slot, isActive, highlight } = props;
  const ref = useRef<HTMLElement>(null);
  const message = slot.status === "ready" ? slot.message : undefined;
  const role = message?.role ?? ROLE_OF_CODE[roleCode] ?? "unknown";
  const highlightedPart = message && highlight ? highlightedPartIndex(message, highlight) : undefined;

  // A search hit beyond the collapsed lines opens its part (fetching it in full when cut).
  const handledSeq = useRef<number>(undefined);
  useEffect(() => {
    if (!message || highlightedPart === undefined || !highlight?.needle || handledSeq.current === highlight.seq) return;
    handledSeq.current = highlight.seq;
    const part = message.parts[highlightedPart];
    if (!part || props.isExpanded(index, highlightedPart)) return;
    if (!collapseText(visibleText(part)).toLowerCase().includes(highlight.needle.toLowerCase()))
      props.onTogglePart(index, highlightedPart, true, isTruncated(part));
  });

  // Bring the pointed-at part into view — its first search match when there is one (again once
  // the full text arrives, since the match may be far down a long output).
  useEffect(() => {
    if (highlightedPart === undefined) return;
    const frame = requestAnimationFrame(() => {
      const part = ref.current?.querySelector(`[data-part-index="${highlightedPart}"]`);
      const mark = highlight?.needle ? part?.querySelector("mark") : null;
      if (mark) mark.scrollIntoView({ block: "center" });
      else part?.scrollIntoView({ block: "nearest" });
    });
    return () => cancelAnimationFrame(frame);
  }, [highlightedPart, highlight?.seq, highlight?.needle, message]);

  return (
    <article
      ref={ref}
      className={styles.message}
      data-testid="message-row"
      data-message-index={index}
      data-role={role}
      data-active={isActive || undefined}
      data-highlighted={highlight !== undefined || undefined}
      aria-label={`message ${index}, ${role}`}
    >
      <header className={`${viewerRow.head} ${styles.messageHead}`}>
        <span className={`${viewerRow.index} ${styles.index}`}>#{index}</span>
        <span className={`${viewerRow.role} ${styles.role}`} data-role={role}>
          {role}
        </span>
        {message?.conversationId ? (
          <span
            className={`${viewerRow.objectId} ${textStyles.objectId}`}
            data-object-id={message.conversationId}
            data-highlighted={highlight?.objectId === message.conversationId || undefined}
          >
            {message.conversationId}
          </span>
        ) : null}
        {message?.timestamp ? <time className={textStyles.faintMono}>{formatDateTime(message.timestamp, { seconds: true })}</time> : null}
        {message?.model ? <span className={styles.model}>{message.model}</span> : null}
        {message?.meta ? <MetaFlags meta={message.meta} /> : null}
        <span className={styles.spacer} />
        {message?.usage ? <span className={styles.usage}>{formatUsage(message.usage)}</span> : null}
        <TokenBar tokens={tokens} max={maxTokens} />
      </header>
      {slot.status === "ready" ? (
        <div className={`${viewerRow.parts} ${styles.parts}`}>
          {slot.message.parts.length === 0 ? <span className={textStyles.faint}>(no content)</span> : null}
          {slot.message.parts.map((part, p) => (
            <PartBlock
              key={p}
              part={part}
              message={index}
              partIndex={p}
              isHighlighted={highlightedPart === p}
              expanded={props.isExpanded(index, p)}
              loadingFull={props.loadingFull}
              needle={props.needle}
              onToggle={(expand) => props.onTogglePart(index, p, expand, isTruncated(part))}
              onJump={props.onJump}
            />
          ))}
        </div>
      ) : slot.status === "loading" ? (
        <div className={`${viewerRow.skeleton} ${styles.skeleton}`} style={{ height: estimateMessageHeight(tokens) - 34 }} aria-busy="true" />
      ) : (
        <div className="alert alert-error" role="alert">
          Could not load this message: {slot.error}{" "}
          <button type="button" className="btn btn-sm" onClick={() => props.onRetry(index)}>
            Retry
          </button>
        </div>
      )}
    </article>
  );
}

function highlightedPartIndex(message: MessageView, highlight: Highlight): number | undefined {
  if (highlight.message !== message.index) return undefined;
  if (highlight.objectId) {
    const p = message.parts.findIndex((part) => part.type === "tool_result" && part.objectId === highlight.objectId);
    if (p !== -1) return p;
  }
  if (highlight.callId) {
    const p = message.parts.findIndex((part) => part.type === "tool_call" && part.id === highlight.callId);
    if (p !== -1) return p;
  }
  return highlight.part;
}

/** The text a part shows in its collapsible body (tool calls also show their name in the head). */
function visibleText(part: PartView): string {
  switch (part.type) {
    case "text":
    case "reasoning":
      return part.text;
    case "tool_call":
      return `${part.name}\n${part.arguments}`;
    case "tool_result":
      return part.content;
    case "other":
      return part.text ?? part.kind;
    case "image":
      return "[image]";
  }
}

function isTruncated(part: PartView): boolean {
  return "truncated" in part && part.truncated;
}

function MetaFlags({ meta }: { meta: NonNullable<MessageView["meta"]> }) {
  const flags = Object.entries(meta).filter(([, value]) => value === true);
  return (
    <>
      {flags.map(([key]) => (
        <span key={key} className={styles.flag}>
          {key}
        </span>
      ))}
    </>
  );
}

function formatUsage(usage: NonNullable<MessageView["usage"]>): string {
  const input = (usage.inputTokens ?? 0) + (usage.cachedInputTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
  const parts: string[] = [];
  if (input > 0) parts.push(`in ${compact(input)}`);
  if (usage.outputTokens !== undefined) parts.push(`out ${compact(usage.outputTokens)}`);
  return parts.join(" · ");
}

export function compact(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${(value / 1000).toFixed(value < 10_000 ? 1 : 0)}k`;
  return `${(value / 1_000_000).toFixed(value < 10_000_000 ? 2 : 1)}M`;
}
