"use client";

import { useEffect, useState } from "react";
import { plural } from "@/lib/util/plural";
import type { SafeCut } from "@/server/compaction/compaction-api";
import fieldStyles from "./fields.module.css";
import rowStyles from "./replay-row.module.css";
import styles from "./cut-slider.module.css";

const fmt = (n: number) => n.toLocaleString("en-US");

/** Index of the safe cut closest to `cut` (ties go to the earlier cut). */
export function nearestCutIndex(cuts: readonly SafeCut[], cut: number): number {
  let best = 0;
  for (let i = 0; i < cuts.length; i++) if (Math.abs(cuts[i]!.cut - cut) < Math.abs(cuts[best]!.cut - cut)) best = i;
  return best;
}

/**
 * The cut point: a slider over the session's safe cuts only (each step is one), plus a number
 * field that snaps what is typed to the nearest safe cut.
 */
export function CutSlider({
  cuts,
  index,
  messageCount,
  onChange,
}: {
  cuts: readonly SafeCut[];
  index: number;
  messageCount: number;
  onChange(index: number): void;
}) {
  const current = cuts[index];
  const [typed, setTyped] = useState(String(current?.cut ?? ""));
  useEffect(() => setTyped(String(current?.cut ?? "")), [current?.cut]);
  if (!current) return <p className={fieldStyles.hint}>This session has no messages to cut.</p>;
  const commit = () => {
    const n = Number(typed);
    if (Number.isFinite(n) && typed.trim() !== "") onChange(nearestCutIndex(cuts, n));
    else setTyped(String(current.cut));
  };
  const label = `cut after ${plural(current.cut, "message")} · ${plural(current.tokens, "token")}`;
  return (
    <div>
      <div className={styles.cutHead}>
        <label className={`${fieldStyles.fieldLabel} ${styles.fieldLabel}`} htmlFor="cut-range">
          Cut point
        </label>
        <span className={styles.cutCount}>
          safe cut {fmt(index + 1)} of {fmt(cuts.length)} · {plural(messageCount, "message")}
        </span>
      </div>
      <output className={styles.cutValue} htmlFor="cut-range" data-testid="cut-label">
        {label}
      </output>
      <input
        id="cut-range"
        className={styles.range}
        type="range"
        min={0}
        max={cuts.length - 1}
        step={1}
        value={index}
        aria-valuetext={label}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <div className={styles.cutRow}>
        <button
          type="button"
          className={`btn btn-sm ${styles.cutStep}`}
          onClick={() => onChange(Math.max(0, index - 1))}
          disabled={index === 0}
          aria-label="Previous safe cut"
          title="previous safe cut ( [ )"
        >
          ‹
        </button>
        <button
          type="button"
          className={`btn btn-sm ${styles.cutStep}`}
          onClick={() => onChange(Math.min(cuts.length - 1, index + 1))}
          disabled={index === cuts.length - 1}
          aria-label="Next safe cut"
          title="next safe cut ( ] )"
        >
          ›
        </button>
        <label>
          Cut after messages
          <input
            className={`input ${styles.smallInput}`}
            type="number"
            min={1}
            max={messageCount}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onBlur={commit}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                commit();
              }
            }}
          />
        </label>
        <span className={rowStyles.faint} title="a safe cut leaves no tool call without its result">
          snaps to a safe cut
        </span>
      </div>
    </div>
  );
}
