"use client";

import { useMemo } from "react";
import type { PolicyFamily } from "@/lib/compaction/policies/types";
import type { PolicyInfo } from "@/server/compaction/compaction-api";
import { FAMILY_LABELS } from "./action-palette";
import fieldStyles from "./fields.module.css";
import styles from "./policy-picker.module.css";

/** The policy select, grouped by family in registry order, with the chosen policy's description and source. */
export function PolicyPicker({ policies, value, onChange }: { policies: readonly PolicyInfo[]; value: string; onChange(id: string): void }) {
  const groups = useMemo(() => {
    const byFamily = new Map<PolicyFamily, PolicyInfo[]>();
    for (const p of policies) byFamily.set(p.family, [...(byFamily.get(p.family) ?? []), p]);
    return [...byFamily];
  }, [policies]);
  const selected = policies.find((p) => p.id === value);
  return (
    <div>
      <label className={fieldStyles.fieldLabel} htmlFor="policy-select">
        Policy
      </label>
      <select id="policy-select" className={`select ${styles.policySelect}`} value={value} onChange={(e) => onChange(e.target.value)}>
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
      {selected ? (
        <>
          <p className={styles.policyInfo} data-testid="policy-description">
            <span className={styles.familyTag}>{FAMILY_LABELS[selected.family]}</span>
            {selected.description}
          </p>
          <p className={styles.policySource}>Source: {selected.source}</p>
        </>
      ) : null}
    </div>
  );
}
