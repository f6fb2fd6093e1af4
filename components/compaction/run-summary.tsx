"use client";

import type { ReactNode } from "react";
import type { ActionKind } from "@/lib/compaction/projection/types";
import { plural, nounFor } from "@/lib/util/plural";
import type { CompactData } from "@/server/compaction/compaction-api";
import { ACTION_LABELS, ACTION_ORDER } from "./action-palette";
import labelStyles from "./run-labels.module.css";
import styles from "./run-summary.module.css";

const fmt = (n: number) => n.toLocaleString("en-US");

/** Tokens before → after, prune %, window use and the count of each action for one run. */
export function RunSummary({ data, label, tools, hideMeta }: { data: CompactData; label?: string; tools?: ReactNode; hideMeta?: boolean }) {
  const { result, choice } = data;
  const counts = new Map<ActionKind, number>();
  for (const a of result.actions) counts.set(a.action, (counts.get(a.action) ?? 0) + 1);
  const pct = result.pruneRate * 100;
  const afterShare = result.tokensBefore > 0 ? result.tokensAfter / result.tokensBefore : 1;
  const windowShare = result.window > 0 ? Math.min(1, result.tokensBefore / result.window) : 0;
  return (
    <section className={`card ${styles.runCard}`} aria-label={`${label ?? "Result"}: ${result.policy}`} data-testid="run-summary" data-policy={result.policy}>
      <div className={styles.runCardHead}>
        {label ? <span className={labelStyles.legendTitle}>{label}</span> : null}
        <span className={styles.policyBadge}>{result.policy}</span>
        {hideMeta ? null : (
          <span className={labelStyles.runMeta}>
            cut after {fmt(result.cut)} of {plural(data.messageCount, "message")} · window {fmt(result.window)} tok
          </span>
        )}
        {tools ? <div className={labelStyles.compareTools}>{tools}</div> : null}
      </div>
      <div className={styles.runNumbers} data-testid="run-numbers">
        <span className={styles.tokens}>
          {fmt(result.tokensBefore)}
          <span className={styles.arrow}>→</span>
          {fmt(result.tokensAfter)}
          <span className={styles.tokensUnit}>tokens</span>
        </span>
        <span className={styles.prunePct} data-zero={result.tokensAfter >= result.tokensBefore || undefined} title="1 − after / before">
          {pct > 0 ? "−" : pct < 0 ? "+" : ""}
          {Math.abs(pct).toFixed(1)}% pruned
        </span>
        <span className={labelStyles.runMeta}>
          {Math.round(windowShare * 100)}% → {result.window > 0 ? Math.round((result.tokensAfter / result.window) * 100) : 0}% of the window
        </span>
      </div>
      <div className={styles.fill} aria-hidden="true" title="after as a share of before">
        <span style={{ width: `${Math.max(0, Math.min(1, afterShare)) * 100}%` }} />
      </div>
      <div className={styles.counts} data-testid="action-counts">
        {ACTION_ORDER.filter((a) => a !== "keep" && counts.has(a)).map((a) => (
          <span key={a} className={styles.count} data-action={a}>
            <span className={labelStyles.swatch} data-action={a} />
            <strong>{fmt(counts.get(a)!)}</strong> {ACTION_LABELS[a]}
          </span>
        ))}
        {result.actions.length === 0 ? <span>no actions: the prefix is unchanged</span> : null}
        {result.rejected.length > 0 ? (
          <span className={styles.count}>
            <strong>{fmt(result.rejected.length)}</strong> rejected
          </span>
        ) : null}
        {result.sidecars.length > 0 ? (
          <span className={styles.count}>
            <strong>{fmt(result.sidecars.length)}</strong> {nounFor(result.sidecars.length, "sidecar")}
          </span>
        ) : null}
      </div>
      {hideMeta || choice.note.endsWith("(given)") ? null : <div className={labelStyles.note}>{choice.note}</div>}
    </section>
  );
}
