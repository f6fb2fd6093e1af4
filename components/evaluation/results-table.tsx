"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "@/components/data-table/data-table";
import type { RunView } from "./eval-types";

type Aggregate = RunView["aggregates"]["policies"][number];
const column = createColumnHelper<Aggregate>();

const fixed = (x: number | null) => (x === null ? "—" : x.toFixed(2));
const withInterval = (pct: number | null, ci: [number, number] | null) =>
  pct === null || ci === null ? "—" : `${pct.toFixed(2)} [${ci[0].toFixed(2)}, ${ci[1].toFixed(2)}]`;

/**
 * Per-policy figures at each policy's own settings (lib/evaluation aggregatePolicies over the stored
 * results): prune and net prune, the headline no-impact rate with its Wilson interval, the visible
 * and restorable readings with theirs, restores per cut and failures. The table is as tall as its
 * rows (no short scroll box of its own); clicking a row opens the policy's cuts, hovering it
 * highlights the policy in the trade-off chart (and the chart's hover highlights the row).
 */
export function ResultsTable({
  policies,
  onSelect,
  highlighted,
  onHover,
}: {
  policies: Aggregate[];
  onSelect: (policy: string) => void;
  highlighted?: string | null;
  onHover?: (policy: string | null) => void;
}) {
  const columns = [
    column.accessor("id", {
      header: "Policy",
      cell: (c) => (
        <button
          type="button"
          className="btn btn-ghost btn-sm mono"
          onClick={(e) => {
            e.stopPropagation();
            onSelect(c.getValue());
          }}
          aria-label={`Cuts of ${c.getValue()}`}
        >
          {c.getValue()}
        </button>
      ),
    }),
    column.accessor("cuts", { header: "Cuts", meta: { numeric: true } }),
    column.accessor("prunePct", { header: "Prune %", cell: (c) => c.getValue().toFixed(2), meta: { numeric: true } }),
    column.accessor((p) => p.netPrunePct ?? -1, {
      id: "netPrunePct",
      header: "Net prune %",
      cell: (c) => fixed(c.row.original.netPrunePct),
      meta: { numeric: true },
    }),
    column.accessor("noImpactPct", {
      header: "No-impact % [95%]",
      cell: (c) => `${c.getValue().toFixed(2)} [${c.row.original.ci95[0].toFixed(2)}–${c.row.original.ci95[1].toFixed(2)}]`,
      meta: { numeric: true },
    }),
    column.accessor((p) => p.visibleNoImpactPct ?? -1, {
      id: "visible",
      header: "Visible % [95%]",
      cell: (c) => withInterval(c.row.original.visibleNoImpactPct, c.row.original.visibleCi95),
      meta: { numeric: true },
    }),
    column.accessor((p) => p.restorableNoImpactPct ?? -1, {
      id: "restorable",
      header: "Restorable % [95%]",
      cell: (c) => withInterval(c.row.original.restorableNoImpactPct, c.row.original.restorableCi95),
      meta: { numeric: true },
    }),
    column.accessor((p) => p.restoresPerCut ?? -1, {
      id: "restoresPerCut",
      header: "Restores / cut",
      cell: (c) => fixed(c.row.original.restoresPerCut),
      meta: { numeric: true },
    }),
    column.accessor("n", { header: "n", cell: (c) => `${c.row.original.noImpact} / ${c.getValue()}`, meta: { numeric: true } }),
    column.accessor(
      (p) =>
        Object.entries(p.failures)
          .map(([k, v]) => `${k}: ${v}`)
          .join(", "),
      { id: "failures", header: "Failures by category", cell: (c) => c.getValue() || "—", enableSorting: false },
    ),
    column.accessor("failedUnits", { header: "Failed units", meta: { numeric: true } }),
  ];
  return (
    <DataTable
      data={policies}
      columns={columns}
      label="Results"
      searchPlaceholder="Policy or failure category…"
      getRowId={(p) => p.id}
      initialPageSize={100}
      fullHeight
      rowProps={(p) => ({
        className: `dt-row-link${highlighted === p.id ? " dt-row-highlight" : ""}`,
        title: `Open the cuts of ${p.id}`,
        onClick: () => onSelect(p.id),
        onMouseEnter: () => onHover?.(p.id),
        onMouseLeave: () => onHover?.(null),
        "data-policy": p.id,
        "data-highlighted": highlighted === p.id ? "true" : undefined,
      })}
    />
  );
}

/** What the readings in the table mean, in one paragraph (shown above it). */
export function VerdictLegend() {
  return (
    <p className="verdict-legend" data-testid="verdict-legend">
      For every value the real future used from the prefix, the dependency judge reads the policy&apos;s view three ways: <strong>visible</strong> — the value
      is there verbatim; <strong>restorable</strong> — it is not, but the view names the sidecar (by its digest) that holds it, so the agent can read it back at
      a cost (the sidecar&apos;s tokens plus one tool call); <strong>lost</strong> — neither. <em>Visible %</em> counts cuts where every dependency was visible,{" "}
      <em>restorable %</em> cuts where none was lost, and the headline <em>no-impact %</em> uses the restorable rule (nothing lost), the same for every policy.
      Each comes with its Wilson 95% interval. <em>Prune %</em> is the mean share of the prefix&apos;s tokens removed; <em>net prune %</em> charges the restores
      the future needs (each sidecar once) back against it, and <em>restores / cut</em> counts them. An LLM judge gives only the headline.
    </p>
  );
}
