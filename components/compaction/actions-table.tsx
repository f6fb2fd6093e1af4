"use client";

import { useMemo, useState } from "react";
import type { ActionKind } from "@/lib/compaction/projection/types";
import { plural } from "@/lib/util/plural";
import type { CompactRun } from "@/server/compaction/compaction-api";
import { ACTION_LABELS, ACTION_ORDER } from "./action-palette";
import badgeStyles from "@/components/ui/badge.module.css";
import panelStyles from "@/components/ui/panel.module.css";
import tableStyles from "@/components/ui/table.module.css";
import labelStyles from "./run-labels.module.css";
import styles from "./actions-table.module.css";

const fmt = (n: number) => n.toLocaleString("en-US");

/**
 * Every action of a run with its rule and reason; clicking a target scrolls the columns to it.
 * Rejected proposals follow with the reason the harness gave.
 */
export function ActionsTable({ run, onTarget }: { run: CompactRun; onTarget(target: string): void }) {
  const [filter, setFilter] = useState<ActionKind | "all">("all");
  const present = useMemo(() => ACTION_ORDER.filter((a) => run.actions.some((x) => x.action === a)), [run.actions]);
  const shown = filter === "all" ? run.actions : run.actions.filter((a) => a.action === filter);
  const saved = run.actions.reduce((sum, a) => sum + a.tokensBefore - a.tokensAfter, 0);
  return (
    <section className={`card ${panelStyles.panel}`} aria-label="Actions" data-testid="actions-panel">
      <div className={panelStyles.panelHead}>
        <h2>Actions</h2>
        <span className={labelStyles.runMeta}>
          {plural(run.actions.length, "action")} · {plural(saved, "token")} saved
        </span>
        {present.length > 1 ? (
          <select className="select" aria-label="Filter actions" value={filter} onChange={(e) => setFilter(e.target.value as ActionKind | "all")}>
            <option value="all">all actions</option>
            {present.map((a) => (
              <option key={a} value={a}>
                {ACTION_LABELS[a]} ({run.actions.filter((x) => x.action === a).length})
              </option>
            ))}
          </select>
        ) : null}
      </div>
      {run.actions.length === 0 ? (
        <p className={`${panelStyles.panelBody} ${panelStyles.none}`}>No actions: the policy left the prefix unchanged (see the decision log).</p>
      ) : (
        <div className={styles.actionsScroll}>
          <table className={`${tableStyles.table} ${styles.table}`} data-testid="actions-table">
            <thead>
              <tr>
                <th>Target</th>
                <th>Action</th>
                <th>Rule</th>
                <th>Reason</th>
                <th className={tableStyles.num}>Before</th>
                <th className={tableStyles.num}>After</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((a, i) => (
                <tr key={`${a.target}:${i}`}>
                  <td>
                    <button type="button" className={tableStyles.targetButton} onClick={() => onTarget(a.target)} title="scroll the columns to it">
                      {a.target}
                    </button>
                  </td>
                  <td>
                    <span className={badgeStyles.badge} data-action={a.action}>
                      {ACTION_LABELS[a.action]}
                    </span>
                  </td>
                  <td className={tableStyles.rule}>{a.rule}</td>
                  <td className={tableStyles.reason}>
                    <div className={styles.reasonText} data-testid="action-reason">
                      {a.reason}
                    </div>
                  </td>
                  <td className={tableStyles.num}>{fmt(a.tokensBefore)}</td>
                  <td className={tableStyles.num}>{fmt(a.tokensAfter)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {run.rejected.length > 0 ? (
        <div className={panelStyles.panelBody}>
          <div className={panelStyles.section} data-testid="rejected">
            <h3>Rejected ({fmt(run.rejected.length)})</h3>
            <table className={tableStyles.table}>
              <thead>
                <tr>
                  <th>Target</th>
                  <th>Why it was refused</th>
                </tr>
              </thead>
              <tbody>
                {run.rejected.map((r, i) => (
                  <tr key={`${r.target}:${i}`}>
                    <td>
                      <button type="button" className={tableStyles.targetButton} onClick={() => onTarget(r.target)}>
                        {r.target}
                      </button>
                    </td>
                    <td className={tableStyles.reason}>{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </section>
  );
}
