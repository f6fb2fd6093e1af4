"use client";

import type { ReactNode } from "react";
import type { ActionKind, PolicyAction } from "@/lib/compaction/projection/types";
import { ACTION_LABELS } from "./action-palette";
import viewerRow from "@/components/ui/viewer-row.module.css";
import badgeStyles from "@/components/ui/badge.module.css";
import tableStyles from "@/components/ui/table.module.css";
import rowStyles from "./replay-row.module.css";
import styles from "./part-frame.module.css";

export interface PartFrameProps {
  kind: string;
  side: "original" | "projected";
  action: ActionKind;
  /** The action record responsible (its reason is shown on the part). */
  decision?: PolicyAction | undefined;
  target?: string | undefined;
  objectId?: string | undefined;
  toolName?: string | undefined;
  isError?: boolean | undefined;
  reminder?: boolean | undefined;
  onTarget?: ((target: string) => void) | undefined;
  /** False on later parts of a span the same action already explained (a folded turn's 100 messages). */
  explain?: boolean | undefined;
  children: ReactNode;
}

/** One part, framed and coloured by the action it received, with the reason when it changed. */
export function PartFrame(props: PartFrameProps) {
  const { kind, side, action, decision, target, objectId, toolName, isError, reminder, onTarget, explain = true, children } = props;
  const changed = action !== "keep";
  const label = reminder ? "reminder" : kind === "tool_call" ? "call" : kind === "tool_result" ? "result" : kind;
  return (
    <div
      className={`${viewerRow.part} ${rowStyles.part}`}
      data-kind={kind}
      data-side={side}
      data-action={action}
      data-object-id={objectId}
      data-reminder={reminder || undefined}
      data-testid="part"
    >
      <div className={`${viewerRow.partHead} ${rowStyles.partHead}`}>
        <span className={`${viewerRow.partKind} ${rowStyles.partKind}`}>{label}</span>
        {toolName ? <span className={`${viewerRow.toolName} ${rowStyles.toolName}`}>{toolName}</span> : null}
        {objectId ? <span className={`${viewerRow.objectId} ${rowStyles.objectId}`}>{objectId}</span> : null}
        {isError ? <span className={`${viewerRow.errorPill} ${rowStyles.errorPill}`}>error</span> : null}
        {changed && !reminder ? (
          <span
            className={`${badgeStyles.badge} ${rowStyles.pushRight}`}
            data-action={action}
            title={decision ? `${decision.rule}: ${decision.reason}` : undefined}
          >
            {ACTION_LABELS[action]}
          </span>
        ) : null}
      </div>
      {changed && (decision || target) ? (
        <div className={styles.why}>
          {target && target !== objectId ? (
            onTarget ? (
              <button type="button" className={rowStyles.targetLink} onClick={() => onTarget(target)} title="show this action">
                {target}
              </button>
            ) : (
              <span className={rowStyles.faint}>{target}</span>
            )
          ) : null}
          {decision && explain ? <span>{decision.reason}</span> : null}
          {decision && explain ? <span className={`${tableStyles.rule} ${styles.rule}`}>{decision.rule}</span> : null}
        </div>
      ) : null}
      {children}
    </div>
  );
}
