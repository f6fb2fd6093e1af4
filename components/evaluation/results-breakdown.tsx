"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { useEffect, useState } from "react";
import { DataTable } from "@/components/data-table/data-table";
import type { EvalApiResponse, RunBreakdown, RunView } from "./eval-types";
import { ResultsTable } from "./results-table";

type By = "none" | RunBreakdown["by"];
type GroupRow = RunBreakdown["groups"][number]["policies"][number] & { group: string; groupLabel: string };
const column = createColumnHelper<GroupRow>();

/**
 * The results table with a Breakdown selector above it: none (the per-policy rows), or the same
 * rows per workload or per trace format, fetched from `GET /api/evaluations/[id]/breakdown` and
 * refetched as the run progresses (`version`).
 */
export function ResultsBreakdown({
  runId,
  policies,
  version,
  onSelect,
  highlighted = null,
  onHover,
}: {
  runId: string;
  policies: RunView["aggregates"]["policies"];
  version: number;
  onSelect: (policy: string) => void;
  highlighted?: string | null;
  onHover?: (policy: string | null) => void;
}) {
  const [by, setBy] = useState<By>("none");
  const [breakdown, setBreakdown] = useState<RunBreakdown | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (by === "none") return;
    let live = true;
    fetch(`/api/evaluations/${encodeURIComponent(runId)}/breakdown?${new URLSearchParams({ by })}`, { cache: "no-store" })
      .then((r) => r.json() as Promise<EvalApiResponse<RunBreakdown>>)
      .then((body) => {
        if (!live) return;
        if (body.ok) {
          setBreakdown(body.data);
          setError(null);
        } else setError(body.message);
      })
      .catch((e: unknown) => live && setError(`could not load the breakdown: ${String(e)}`));
    return () => {
      live = false;
    };
  }, [runId, by, version]);
  const rows: GroupRow[] =
    by !== "none" && breakdown?.by === by
      ? breakdown.groups.flatMap((g) => g.policies.map((p) => ({ ...p, group: g.group, groupLabel: `${g.group} (${g.sessions} sessions, ${g.cuts} cuts)` })))
      : [];
  const columns = [
    column.accessor("groupLabel", { header: by === "format" ? "Format" : "Workload", cell: (c) => <span className="mono">{c.getValue()}</span> }),
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
      cell: (c) => (c.row.original.netPrunePct === null ? "—" : c.row.original.netPrunePct.toFixed(2)),
      meta: { numeric: true },
    }),
    column.accessor("noImpactPct", { header: "No-impact %", cell: (c) => c.getValue().toFixed(2), meta: { numeric: true } }),
    column.accessor((p) => p.ci95[0], {
      id: "ci95",
      header: "95% interval",
      cell: (c) => `${c.row.original.ci95[0].toFixed(2)}–${c.row.original.ci95[1].toFixed(2)}`,
      meta: { numeric: true },
    }),
    column.accessor((p) => p.visibleNoImpactPct ?? -1, {
      id: "visible",
      header: "Visible %",
      cell: (c) => (c.row.original.visibleNoImpactPct === null ? "—" : c.row.original.visibleNoImpactPct.toFixed(2)),
      meta: { numeric: true },
    }),
    column.accessor((p) => p.restorableNoImpactPct ?? -1, {
      id: "restorable",
      header: "Restorable %",
      cell: (c) => (c.row.original.restorableNoImpactPct === null ? "—" : c.row.original.restorableNoImpactPct.toFixed(2)),
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
  ];
  return (
    <div className="stack">
      <label className="field" style={{ maxWidth: 240 }}>
        Breakdown
        <select className="select" value={by} onChange={(e) => setBy(e.target.value as By)}>
          <option value="none">none</option>
          <option value="workload">workload (tool mix)</option>
          <option value="format">format</option>
        </select>
      </label>
      {error && by !== "none" ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      {by === "none" ? (
        <ResultsTable policies={policies} onSelect={onSelect} highlighted={highlighted} {...(onHover ? { onHover } : {})} />
      ) : breakdown?.by === by ? (
        <DataTable
          key={by}
          data={rows}
          columns={columns}
          label={`Results by ${by}`}
          filters={[{ columnId: "groupLabel", label: by === "format" ? "Format" : "Workload" }]}
          searchPlaceholder={`Policy or ${by}…`}
          getRowId={(r) => `${r.group}:${r.id}`}
          initialPageSize={100}
          fullHeight
          rowProps={(r) => ({
            className: `dt-row-link${highlighted === r.id ? " dt-row-highlight" : ""}`,
            onClick: () => onSelect(r.id),
            onMouseEnter: () => onHover?.(r.id),
            onMouseLeave: () => onHover?.(null),
          })}
        />
      ) : error ? null : (
        <p className="faint">Loading the breakdown…</p>
      )}
    </div>
  );
}
