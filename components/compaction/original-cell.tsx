"use client";

import { memo } from "react";
import { partBody } from "@/lib/trace/part-body";
import type { PolicyAction } from "@/lib/compaction/projection/types";
import type { PrefixMark } from "@/server/compaction/compaction-api";
import type { MessageView, PartView } from "@/server/trace/session/types";
import { formatArguments } from "@/components/trace/viewer/format-arguments";
import { ACTION_LABELS, dominantAction } from "./action-palette";
import { PartFrame } from "./part-frame";
import { TextBlock } from "./text-block";
import type { OriginalSlot } from "./use-prefix-windows";
import viewerRow from "@/components/ui/viewer-row.module.css";
import rowStyles from "./replay-row.module.css";

export interface OriginalCellProps {
  index: number;
  slot: OriginalSlot;
  mark: PrefixMark | undefined;
  decisions: ReadonlyMap<string, PolicyAction>;
  onRetry(index: number): void;
  loadFull(index: number): Promise<MessageView>;
  onTarget(target: string): void;
  /** First original message each action target touches (its reason is shown there only). */
  firstOf: ReadonlyMap<string, number>;
}

/** One message of the original prefix, each part coloured by what the run did to it. */
export const OriginalCell = memo(function OriginalCell({ index, slot, mark, decisions, onRetry, loadFull, onTarget, firstOf }: OriginalCellProps) {
  const role = typeof slot === "object" && "role" in slot ? slot.role : (mark?.role ?? "unknown");
  const action = dominantAction(mark?.parts.map((p) => p.action) ?? []);
  return (
    <div className={rowStyles.cell} data-testid="original-cell" data-message-index={index} data-action={action}>
      <div className={`${viewerRow.head} ${rowStyles.msgHead}`}>
        <span className={`${viewerRow.index} ${rowStyles.index}`}>#{index}</span>
        <span className={`${viewerRow.role} ${rowStyles.role}`} data-role={role}>
          {role}
        </span>
        {typeof slot === "object" && "conversationId" in slot && slot.conversationId ? (
          <span className={`${viewerRow.objectId} ${rowStyles.objectId}`}>{slot.conversationId}</span>
        ) : null}
        {action !== "keep" ? <span className={rowStyles.faint}>{ACTION_LABELS[action]}</span> : null}
        <span className={rowStyles.msgTokens}>{(mark?.tokens ?? 0).toLocaleString("en-US")} tok</span>
      </div>
      {slot === "loading" ? (
        <div className={`${viewerRow.skeleton} ${rowStyles.skeleton}`} aria-busy="true" />
      ) : "error" in slot ? (
        <div className="alert alert-error" role="alert">
          Could not load message #{index}: {slot.error}{" "}
          <button type="button" className="btn btn-sm" onClick={() => onRetry(index)}>
            Retry
          </button>
        </div>
      ) : (
        <div className={`${viewerRow.parts} ${rowStyles.parts}`}>
          {slot.parts.length === 0 ? <span className={rowStyles.faint}>(no content)</span> : null}
          {slot.parts.map((part, p) => {
            const partMark = mark?.parts[p];
            const target = partMark?.target;
            const explain = target === undefined || (firstOf.get(target) === index && mark?.parts.findIndex((x) => x.target === target) === p);
            return (
              <PartFrame
                key={p}
                kind={part.type}
                side="original"
                action={partMark?.action ?? "keep"}
                decision={target ? decisions.get(target) : undefined}
                target={target}
                objectId={part.type === "tool_result" ? part.objectId : undefined}
                toolName={part.type === "tool_call" || part.type === "tool_result" ? part.name : undefined}
                isError={part.type === "tool_result" ? part.isError : undefined}
                onTarget={onTarget}
                explain={explain}
              >
                <OriginalBody part={part} load={async () => fullText((await loadFull(index)).parts[p])} />
              </PartFrame>
            );
          })}
        </div>
      )}
    </div>
  );
});

function OriginalBody({ part, load }: { part: PartView; load: () => Promise<string> }) {
  if (part.type === "image")
    return <pre className={`${viewerRow.text} ${rowStyles.text}`}>[image{part.mediaType ? ` ${part.mediaType}` : ""}: payload not kept]</pre>;
  if (part.type === "tool_call") {
    const formatted = formatArguments(part.arguments, !part.truncated);
    const text = formatted ?? part.arguments;
    return (
      <TextBlock
        text={text}
        length={part.truncated ? part.length : text.length}
        lines={formatted ? text.split("\n").length : part.lines}
        truncated={part.truncated}
        variant="mono"
        loadFull={async () => {
          const raw = await load();
          return formatArguments(raw, true) ?? raw;
        }}
      />
    );
  }
  const text = part.type === "tool_result" ? part.content : (part.text ?? "");
  return (
    <TextBlock
      text={text}
      length={part.length}
      lines={part.lines}
      truncated={part.truncated}
      variant={part.type === "text" ? "prose" : "mono"}
      loadFull={load}
    />
  );
}

/** The full text of a part fetched with getMessage (what the preview was cut from). */
export function fullText(part: PartView | undefined): string {
  return part ? partBody(part) : "";
}
