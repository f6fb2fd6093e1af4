"use client";

import { useMemo, type ReactNode, type Ref } from "react";
import type { PolicyFamily } from "@/lib/compaction/policies/types";
import { plural } from "@/lib/util/plural";
import type { CompactRun, PolicyInfo } from "@/server/compaction/compaction-api";
import { FAMILY_LABELS } from "./action-palette";
import rowStyles from "./replay-row.module.css";
import labelStyles from "./run-labels.module.css";
import styles from "./compare-tools.module.css";

/**
 * "Compare with…": choosing a policy runs it on the same cut and window at once (one step), and
 * the two projected views go side by side. While comparing, a second choice replaces B.
 */
export function CompareTools(props: {
  policies: readonly PolicyInfo[];
  exclude: string;
  value: string | undefined;
  comparing: boolean;
  onCompare(id: string): void;
  onClose(): void;
  ref?: Ref<HTMLSelectElement>;
}) {
  const { policies, exclude, value, comparing, onCompare, onClose, ref } = props;
  const groups = useMemo(() => {
    const byFamily = new Map<PolicyFamily, PolicyInfo[]>();
    for (const p of policies) if (p.id !== exclude) byFamily.set(p.family, [...(byFamily.get(p.family) ?? []), p]);
    return [...byFamily];
  }, [policies, exclude]);
  return (
    <>
      <select
        ref={ref}
        className={`select ${styles.compareSelect}`}
        aria-label="Compare with"
        aria-keyshortcuts="c"
        value={comparing && value ? value : ""}
        onChange={(e) => e.target.value && onCompare(e.target.value)}
      >
        <option value="">{comparing ? "Compare with…" : "Compare with… (c)"}</option>
        {groups.map(([family, list]) => (
          <optgroup key={family} label={FAMILY_LABELS[family]}>
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {comparing ? (
        <button type="button" className="btn btn-sm" onClick={onClose} aria-label="Stop comparing">
          ✕
        </button>
      ) : null}
    </>
  );
}

/**
 * Above the two result cards: the shared cut and window, how far apart the two views are, swap
 * (one click) and the compare controls.
 */
export function CompareBar({
  a,
  b,
  messageCount,
  note,
  onSwap,
  canSwap,
  tools,
}: {
  a: CompactRun;
  b: CompactRun;
  messageCount: number;
  note: string;
  onSwap(): void;
  canSwap: boolean;
  tools: ReactNode;
}) {
  const delta = b.tokensAfter - a.tokensAfter;
  return (
    <div className={styles.compareBar} data-testid="compare-bar">
      <span className={labelStyles.legendTitle}>Comparing</span>
      <span className="mono">{a.policy}</span>
      <span className={rowStyles.faint}>vs</span>
      <span className="mono">{b.policy}</span>
      <span className={labelStyles.runMeta}>
        at cut after {a.cut.toLocaleString("en-US")} of {plural(messageCount, "message")} · window {a.window.toLocaleString("en-US")} tok ·{" "}
        <strong data-testid="compare-delta">
          B {delta <= 0 ? "−" : "+"}
          {plural(Math.abs(delta), "token")} vs A
        </strong>
      </span>
      {note.endsWith("(given)") ? null : (
        <span className={`${labelStyles.note} ${styles.note}`} title={note}>
          {note}
        </span>
      )}
      <div className={labelStyles.compareTools}>
        <button type="button" className="btn btn-sm" onClick={onSwap} disabled={!canSwap} title="swap A and B" aria-label="Swap A and B">
          ⇄ Swap
        </button>
        {tools}
      </div>
    </div>
  );
}
