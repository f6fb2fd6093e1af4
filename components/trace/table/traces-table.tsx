"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import "@/components/data-table/column-meta";
import { PAGE_SIZES } from "@/components/data-table/pagination";
import { readTableState, writeTableState, type TableUrlOptions, type TableViewState } from "@/components/data-table/table-url-state";
import { formatDateTime, instantOf } from "@/lib/util/format-date-time";
import type { TraceSessionRow } from "@/server/trace/list-sessions";
import { formatCount } from "./format-values";

/** Widths (px) for 1440 px and up: one line per row, the title takes what is left. Started fits "2026-04-22 23:13 (no zone)". */
const count = (width: number) => ({ numeric: true, width }) as const;

const columns: ColumnDef<TraceSessionRow, any>[] = [
  {
    id: "title",
    accessorKey: "title",
    header: "Title",
    meta: { truncate: true },
    cell: ({ row }) => (
      <Link href={`/sessions/${row.original.id}`} className="dt-title" title={`${row.original.title || "(untitled)"} — ${row.original.fileName}`}>
        {row.original.title || "(untitled)"}
      </Link>
    ),
  },
  {
    id: "format",
    accessorKey: "format",
    header: "Format",
    filterFn: "equalsString",
    meta: { width: 124, truncate: true },
    cell: ({ getValue }) => (
      <span className="pill" title={getValue<string>()}>
        {getValue<string>()}
      </span>
    ),
  },
  {
    id: "model",
    accessorFn: (r) => r.model ?? "",
    header: "Model",
    filterFn: "equalsString",
    meta: { width: 160, truncate: true },
    cell: ({ getValue }) => (getValue<string>() ? <span title={getValue<string>()}>{getValue<string>()}</span> : <span className="faint">—</span>),
  },
  {
    id: "tools",
    accessorFn: (r) => r.tools,
    header: "Tools",
    filterFn: "arrIncludes",
    getUniqueValues: (r) => r.tools,
    enableSorting: false,
    enableGlobalFilter: false,
    cell: ({ row }) => (
      <span className="faint" title={row.original.tools.join(", ")}>
        {row.original.tools.length}
      </span>
    ),
    meta: count(56),
  },
  {
    id: "messages",
    accessorKey: "messages",
    header: "Messages",
    enableGlobalFilter: false,
    meta: count(84),
    cell: ({ getValue }) => formatCount(getValue<number>()),
  },
  {
    id: "toolCalls",
    accessorKey: "toolCalls",
    header: "Tool calls",
    enableGlobalFilter: false,
    meta: count(80),
    cell: ({ getValue }) => formatCount(getValue<number>()),
  },
  {
    id: "tokens",
    accessorKey: "tokens",
    header: "Tokens (est.)",
    enableGlobalFilter: false,
    meta: count(92),
    cell: ({ getValue }) => formatCount(getValue<number>()),
  },
  {
    id: "providerInputTokens",
    accessorFn: (r) => r.providerInputTokens ?? undefined,
    header: "Provider input",
    sortUndefined: "last",
    enableGlobalFilter: false,
    meta: count(92),
    cell: ({ getValue }) => {
      const value = getValue<number | undefined>();
      return value === undefined ? (
        <span className="faint" title="the trace has no provider usage">
          —
        </span>
      ) : (
        formatCount(value)
      );
    },
  },
  {
    id: "nativeCompactions",
    accessorKey: "nativeCompactions",
    header: "Compactions",
    enableGlobalFilter: false,
    meta: count(112),
    cell: ({ getValue }) => formatCount(getValue<number>()),
  },
  {
    id: "startedAt",
    accessorFn: (r) => instantOf(r.startedAt) ?? undefined,
    header: "Started",
    sortUndefined: "last",
    enableGlobalFilter: false,
    meta: { width: 190, truncate: true },
    cell: ({ row }) =>
      row.original.startedAt ? (
        <When text={formatDateTime(row.original.startedAt)} />
      ) : (
        <span className="faint" title="the trace records no start time">
          —
        </span>
      ),
  },
  {
    id: "uploadedAt",
    accessorKey: "uploadedAt",
    header: "Uploaded",
    enableGlobalFilter: false,
    meta: { width: 160, truncate: true },
    cell: ({ getValue }) => <When text={formatDateTime(getValue<string>())} />,
  },
];

function When({ text }: { text: string }) {
  return (
    <span className="faint dt-when" title={text}>
      {text}
    </span>
  );
}

const FILTERS = [
  { columnId: "format", label: "Format" },
  { columnId: "model", label: "Model" },
  { columnId: "tools", label: "Tool" },
];

const URL_OPTIONS: TableUrlOptions = {
  sortable: columns.filter((c) => c.enableSorting !== false).map((c) => c.id!),
  filters: FILTERS.map((f) => f.columnId),
  pageSizes: PAGE_SIZES,
  defaultSorting: [{ id: "uploadedAt", desc: true }],
  defaultPageSize: 50,
};

/**
 * The traces table: every imported session with its counts; the title opens the session viewer.
 * Its sort, filters, search and page live in the URL (`?format=…&q=…&sort=-startedAt`), so a link
 * shows the same rows and Back or a reload returns to them.
 */
export function TracesTable({ rows }: { rows: TraceSessionRow[] }) {
  const params = useSearchParams();
  const pathname = usePathname();
  // Read once per mount: afterwards the table owns the view and writes it back.
  const initialView = useMemo(() => readTableState(new URLSearchParams(params.toString()), URL_OPTIONS), []); // eslint-disable-line react-hooks/exhaustive-deps
  const keepInUrl = useCallback(
    (view: TableViewState) => {
      const current = new URLSearchParams(window.location.search);
      const next = writeTableState(current, view, URL_OPTIONS).toString();
      if (next !== current.toString()) window.history.replaceState(null, "", next ? `${pathname}?${next}` : pathname);
    },
    [pathname],
  );
  return (
    <DataTable
      data={rows}
      columns={columns}
      label="Traces"
      getRowId={(r) => r.id}
      initialSorting={URL_OPTIONS.defaultSorting}
      initialView={initialView}
      onViewChange={keepInUrl}
      filters={FILTERS}
    />
  );
}
