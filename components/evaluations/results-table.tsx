"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "@/components/data-table/data-table";
import type { RunView } from "./eval-types";

type Aggregate = RunView["aggregates"]["policies"][number];
const column = createColumnHelper<Aggregate>();

/** Per-policy figures (lib/eval aggregatePolicies over the stored results); a row's button drills down to its cuts. */
export function ResultsTable({ policies, onSelect }: { policies: Aggregate[]; onSelect: (policy: string) => void }) {
  const columns = [
    column.accessor("id", {
      header: "Policy",
      cell: (c) => <button type="button" className="btn btn-ghost btn-sm mono" onClick={() => onSelect(c.getValue())} aria-label={`Cuts of ${c.getValue()}`}>{c.getValue()}</button>,
    }),
    column.accessor("cuts", { header: "Cuts", meta: { numeric: true } }),
    column.accessor("prunePct", { header: "Prune %", cell: (c) => c.getValue().toFixed(2), meta: { numeric: true } }),
    column.accessor("noImpactPct", { header: "No-impact %", cell: (c) => c.getValue().toFixed(2), meta: { numeric: true } }),
    column.accessor((p) => p.ci95[0], { id: "ci95", header: "95% interval", cell: (c) => `${c.row.original.ci95[0].toFixed(2)}–${c.row.original.ci95[1].toFixed(2)}`, meta: { numeric: true } }),
    column.accessor("n", { header: "n", cell: (c) => `${c.row.original.noImpact} / ${c.getValue()}`, meta: { numeric: true } }),
    column.accessor((p) => Object.entries(p.failures).map(([k, v]) => `${k}: ${v}`).join(", "), { id: "failures", header: "Failures by category", cell: (c) => c.getValue() || "—", enableSorting: false }),
    column.accessor("failedUnits", { header: "Failed units", meta: { numeric: true } }),
  ];
  return <DataTable data={policies} columns={columns} label="Results" searchPlaceholder="Policy or failure category…" getRowId={(p) => p.id} initialPageSize={50} />;
}
