import type { ReactNode } from "react";
import viewerRow from "@/components/ui/viewer-row.module.css";
import rowStyles from "./replay-row.module.css";

/**
 * The one-line head of a message in a projected view (the replay grid, a rollout's prompt at a
 * call): the original index, or what the harness inserted (a summary, a reminder) framed apart,
 * the role pill, then whatever the caller adds (token counts).
 */
export function ViewMessageHead({ origin, role, children }: { origin: number | "summary" | "reminder"; role: string; children?: ReactNode }) {
  return (
    <div className={`${viewerRow.head} ${rowStyles.msgHead}`}>
      {typeof origin !== "number" ? (
        <span className={rowStyles.insertedLabel}>{origin === "summary" ? "summary · inserted by the policy" : "reminder · harness control plane"}</span>
      ) : (
        <span className={`${viewerRow.index} ${rowStyles.index}`}>#{origin}</span>
      )}
      <span className={`${viewerRow.role} ${rowStyles.role}`} data-role={role}>
        {role}
      </span>
      {children}
    </div>
  );
}
