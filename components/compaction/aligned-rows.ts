import type { ActionKind } from "@/lib/compaction/projection/types";
import type { CompactRun } from "@/server/compaction/compaction-api";
import { dominantAction } from "./action-palette";

/** What one column shows in a row: a projected message, the trace of a removed one, or nothing. */
export type Cell = { kind: "message"; view: number } | { kind: "gone"; action: ActionKind; target?: string } | { kind: "empty" };

export interface AlignedRow {
  key: string;
  /** The original message this row is about; undefined for messages the harness inserted. */
  original?: number;
  /** One cell per run, in column order. */
  cells: Cell[];
  /** True when some column changed something in this row (the "changed only" filter). */
  changed: boolean;
}

/**
 * Lines runs up by original message so the original prefix and each projected view scroll as one:
 * row m is message m in every column (or what became of it). Messages a harness inserted (a
 * summary, a reminder) sit just before the next original message that view keeps, i.e. after the
 * messages they replace. Linear in the prefix.
 */
export function alignRows(runs: readonly CompactRun[]): AlignedRow[] {
  const cut = Math.max(0, ...runs.map((r) => r.cut));
  const at = runs.map(() => new Map<number, number>());
  const inserted = runs.map(() => new Map<number, number[]>());
  runs.forEach((run, r) => {
    let pending: number[] = [];
    run.view.forEach((message, v) => {
      if (typeof message.origin !== "number") {
        pending.push(v);
        return;
      }
      at[r]!.set(message.origin, v);
      if (pending.length > 0) inserted[r]!.set(message.origin, pending);
      pending = [];
    });
    if (pending.length > 0) inserted[r]!.set(cut, pending);
  });

  const rows: AlignedRow[] = [];
  for (let m = 0; m <= cut; m++) {
    const extra = Math.max(0, ...inserted.map((map) => map.get(m)?.length ?? 0));
    for (let i = 0; i < extra; i++) {
      rows.push({
        key: `i${m}.${i}`,
        cells: inserted.map((map) => {
          const v = map.get(m)?.[i];
          return v === undefined ? { kind: "empty" } : { kind: "message", view: v };
        }),
        changed: true,
      });
    }
    if (m === cut) break;
    let changed = false;
    const cells = runs.map((run, r): Cell => {
      const marks = run.marks[m]?.parts ?? [];
      const action = dominantAction(marks.map((p) => p.action));
      if (action !== "keep") changed = true;
      const v = at[r]!.get(m);
      if (v !== undefined) {
        if (run.view[v]!.parts.some((p) => p.action)) changed = true;
        return { kind: "message", view: v };
      }
      changed = true;
      const target = marks.find((p) => p.action === action)?.target;
      return { kind: "gone", action: action === "keep" ? "prune" : action, ...(target ? { target } : {}) };
    });
    rows.push({ key: `m${m}`, original: m, cells, changed });
  }
  return rows;
}

/** Row index of every action target (first row it touches), for "scroll to" from the actions table. */
export function rowsByTarget(rows: readonly AlignedRow[], runs: readonly CompactRun[]): Map<string, number> {
  const byOriginal = new Map<number, number>();
  rows.forEach((row, i) => {
    if (row.original !== undefined) byOriginal.set(row.original, i);
  });
  const out = new Map<string, number>();
  for (const run of runs) {
    run.marks.forEach((mark, m) => {
      const row = byOriginal.get(m);
      if (row === undefined) return;
      for (const part of mark.parts) if (part.target && !out.has(part.target)) out.set(part.target, row);
    });
  }
  return out;
}

/** Where a target lives when no part was marked with it: `message:<i>`, else nothing. */
export function rowOfMessageTarget(target: string, rows: readonly AlignedRow[]): number | undefined {
  const match = /^message:(\d+)$/.exec(target);
  if (!match) return undefined;
  const index = rows.findIndex((row) => row.original === Number(match[1]));
  return index === -1 ? undefined : index;
}
