"use client";

import { memo } from "react";
import type { ActionKind, PolicyAction } from "@/lib/compaction/projection/types";
import type { PrefixMark, ProjectedMessage, ProjectedPart, SidecarRef } from "@/server/compaction/compaction-api";
import type { MessageView } from "@/server/trace/session/types";
import { formatArguments } from "@/components/trace/viewer/format-arguments";
import { ACTION_LABELS } from "./action-palette";
import { fullText } from "./original-cell";
import { PartFrame } from "./part-frame";
import { TextBlock } from "./text-block";
import { ViewMessageHead } from "./view-message-head";
import viewerRow from "@/components/ui/viewer-row.module.css";
import badgeStyles from "@/components/ui/badge.module.css";
import rowStyles from "./replay-row.module.css";
import styles from "./projected-cell.module.css";

export interface ProjectedCellProps {
  column: number;
  message: ProjectedMessage;
  /** Tokens of the original message (to show before → after when it changed). */
  originalTokens: number | undefined;
  decisions: ReadonlyMap<string, PolicyAction>;
  /** The run's marks of the original prefix (to find the action behind a changed part). */
  marks: readonly PrefixMark[];
  sidecars: ReadonlyMap<string, SidecarRef>;
  loadFull(index: number): Promise<MessageView>;
  onRestore(sidecar: SidecarRef): void;
  onTarget(target: string): void;
}

/**
 * One message of a projected view. Messages the harness inserted (summary, reminder) are framed
 * apart from trace content; fold pointers show their sidecar digest with a Restore button.
 */
export const ProjectedCell = memo(function ProjectedCell(props: ProjectedCellProps) {
  const { column, message, originalTokens } = props;
  const inserted = typeof message.origin !== "number";
  const changed = originalTokens !== undefined && originalTokens !== message.tokens;
  const head = (
    <ViewMessageHead origin={message.origin} role={message.role}>
      <span className={rowStyles.msgTokens}>
        {changed ? `${originalTokens!.toLocaleString("en-US")} → ` : null}
        {message.tokens.toLocaleString("en-US")} tok
      </span>
    </ViewMessageHead>
  );
  const parts = (
    <div className={`${viewerRow.parts} ${rowStyles.parts}`}>
      {message.parts.map((part, p) => (
        <ProjectedPartView key={p} part={part} {...props} />
      ))}
    </div>
  );
  return (
    <div className={rowStyles.cell} data-testid="projected-cell" data-column={column} data-origin={String(message.origin)}>
      {inserted ? (
        <div className={rowStyles.inserted} data-origin={message.origin} data-testid={`inserted-${message.origin}`}>
          {head}
          {parts}
        </div>
      ) : (
        <>
          {head}
          {parts}
        </>
      )}
    </div>
  );
});

function ProjectedPartView({ part, decisions, marks, sidecars, loadFull, onRestore, onTarget }: ProjectedCellProps & { part: ProjectedPart }) {
  const action: ActionKind = part.action ?? "keep";
  const origin = part.origin;
  const target = origin ? marks[origin.message]?.parts[origin.part]?.target : undefined;
  const decision = decisions.get(target ?? part.objectId ?? "");
  const load = origin ? async () => fullText((await loadFull(origin.message)).parts[origin.part]) : undefined;
  const linked = (part.sidecars ?? []).map((sha) => sidecars.get(sha)).filter((s): s is SidecarRef => s !== undefined);
  return (
    <PartFrame
      kind={part.type}
      side="projected"
      action={part.reminder ? "fold" : action}
      decision={decision && decision.action === action ? decision : undefined}
      target={target}
      objectId={part.objectId}
      toolName={part.name}
      isError={part.isError}
      reminder={part.reminder}
      onTarget={onTarget}
    >
      <PartText part={part} load={load} />
      {linked.map((s) => (
        <div key={s.sha256} className={styles.sidecar} data-testid="sidecar-pointer">
          <span className={`${viewerRow.partKind} ${rowStyles.partKind}`}>sidecar</span>
          <code title={s.sha256}>sha256:{s.sha256.slice(0, 16)}…</code>
          <span className={rowStyles.faint}>
            {s.target} · {s.bytes.toLocaleString("en-US")} bytes
          </span>
          <button
            type="button"
            className={`btn btn-sm ${styles.restoreButton} ${rowStyles.pushRight}`}
            onClick={() => onRestore(s)}
            aria-label={`Restore ${s.target} from sidecar ${s.sha256.slice(0, 12)}`}
          >
            Restore
          </button>
        </div>
      ))}
    </PartFrame>
  );
}

function PartText({ part, load }: { part: ProjectedPart; load: (() => Promise<string>) | undefined }) {
  if (part.type === "image") return <pre className={`${viewerRow.text} ${rowStyles.text}`}>[image: payload not kept]</pre>;
  if (part.type === "tool_call" && !part.action) {
    const formatted = formatArguments(part.text, !part.truncated);
    if (formatted !== undefined) {
      return (
        <TextBlock
          text={formatted}
          length={part.truncated ? part.length : formatted.length}
          lines={formatted.split("\n").length}
          truncated={part.truncated}
          variant="mono"
          {...(load ? { loadFull: async () => formatArguments(await load(), true) ?? (await load()) } : {})}
        />
      );
    }
  }
  return (
    <TextBlock
      text={part.text}
      length={part.length}
      lines={part.lines}
      truncated={part.truncated}
      variant={part.type === "text" && !part.action ? "prose" : "mono"}
      {...(load ? { loadFull: load } : {})}
    />
  );
}

/** What became of an original message a view no longer has. */
export function GoneCell({
  column,
  index,
  action,
  target,
  decision,
  tokens,
  onTarget,
  explain,
}: {
  column: number;
  /** False when an earlier row already gave this target's reason. */
  explain: boolean;
  index: number;
  action: ActionKind;
  target: string | undefined;
  decision: PolicyAction | undefined;
  tokens: number;
  onTarget(target: string): void;
}) {
  return (
    <div className={rowStyles.cell} data-testid="gone-cell" data-column={column} data-message-index={index}>
      <div className={styles.gone} data-action={action} title={decision ? `${decision.rule}: ${decision.reason}` : undefined}>
        <span className={`${viewerRow.index} ${rowStyles.index}`}>#{index}</span>
        <span className={badgeStyles.badge} data-action={action}>
          {ACTION_LABELS[action]}
        </span>
        {target ? (
          <button type="button" className={rowStyles.targetLink} onClick={() => onTarget(target)}>
            {target}
          </button>
        ) : null}
        <span className={rowStyles.faint}>
          {decision ? (explain ? decision.reason : "") : action === "summarize" ? "collapsed into the summary" : "removed from the view"}
        </span>
        <span className={rowStyles.msgTokens}>{tokens.toLocaleString("en-US")} → 0 tok</span>
      </div>
    </div>
  );
}
