"use client";

import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import type { UsageItem } from "@/lib/online/usage/read-usage";
import { formatDateTime } from "@/lib/util/format-date-time";

type PreviewRow = { line: number; values: Record<string, string>; problem?: string };

const FIELDS = [
  ["timestamp", "Timestamp"],
  ["account", "Account"],
  ["group", "Group"],
  ["surface", "Surface"],
  ["inputTokens", "Input"],
  ["cachedInputTokens", "Cached"],
  ["cacheWriteTokens", "Cache write"],
  ["outputTokens", "Output"],
  ["model", "Model"],
] as const;

const columns: ColumnDef<PreviewRow>[] = [
  { id: "line", header: "Line", cell: ({ row }) => row.original.line },
  ...FIELDS.map(([field, header]): ColumnDef<PreviewRow> => ({
    id: field,
    header,
    cell: ({ row }) =>
      row.original.problem && field === "timestamp" ? <span className="field-error">{row.original.problem}</span> : (row.original.values[field] ?? ""),
  })),
];

function toRow(item: UsageItem): PreviewRow {
  if (!item.ok) return { line: item.issue.line, values: {}, problem: `${item.issue.column ? `column ${item.issue.column}: ` : ""}${item.issue.message}` };
  const values: Record<string, string> = {};
  for (const [field] of FIELDS) {
    const v = item.row[field];
    if (v !== undefined) values[field] = field === "timestamp" ? formatDateTime(v as number, { seconds: true }) : String(v);
  }
  return { line: item.line, values };
}

/** The first rows as Tracefold reads them with the current mapping; a row it cannot read shows its located problem. */
export function PreviewTable({ items }: { items: UsageItem[] }) {
  const table = useReactTable({ data: items.map(toRow), columns, getCoreRowModel: getCoreRowModel() });
  return (
    <div className="dt-scroll">
      <table className="dt" aria-label="Preview of the usage log" data-testid="usage-preview">
        <thead>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {g.headers.map((h) => (
                <th key={h.id}>{flexRender(h.column.columnDef.header, h.getContext())}</th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((r) => (
            <tr key={r.id} data-problem={r.original.problem ? "true" : undefined}>
              {r.getVisibleCells().map((c) => (
                <td
                  key={c.id}
                  colSpan={r.original.problem && c.column.id === "timestamp" ? FIELDS.length : undefined}
                  hidden={Boolean(r.original.problem) && c.column.id !== "timestamp" && c.column.id !== "line"}
                >
                  {flexRender(c.column.columnDef.cell, c.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
