"use client";

import {
  flexRender,
  getCoreRowModel,
  getFacetedRowModel,
  getFacetedUniqueValues,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnFiltersState,
  type SortingState,
} from "@tanstack/react-table";
import { useEffect, useRef, useState, type HTMLAttributes, type ReactNode } from "react";
import "./column-meta";
import { FilterSelect } from "./filter-select";
import { Pagination } from "./pagination";
import { SortHeader } from "./sort-header";
import type { TableViewState } from "./table-url-state";

/** A column offered as a select filter above the table (options come from the data). */
export interface SelectFilter {
  columnId: string;
  label: string;
}

export interface DataTableProps<T> {
  data: T[];
  columns: ColumnDef<T, any>[];
  /** Accessible label of the table and its search box ("Traces"). */
  label: string;
  filters?: SelectFilter[];
  initialSorting?: SortingState;
  initialPageSize?: number;
  /** Shown inside the table when filters leave no rows. */
  noMatches?: ReactNode;
  getRowId?: (row: T) => string;
  /** Placeholder of the search box (default: what the traces table searches). */
  searchPlaceholder?: string;
  /** Let the page scroll the table instead of a short box of its own (a table of a few dozen rows). */
  fullHeight?: boolean;
  /** Attributes of each body row: click and hover handlers, a highlight class, test ids. */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | undefined>;
  /** The view to open with (a link's filters, sort, search and page); overrides the initial* props. */
  initialView?: TableViewState;
  /** Told every change of the view, e.g. to keep it in the URL (`table-url-state.ts`). */
  onViewChange?: (view: TableViewState) => void;
  /** Controls at the end of the toolbar, given every row the search and filters keep (all pages, in order). */
  actions?: (shown: T[]) => ReactNode;
}

/**
 * A reusable client-side table: sorting by header, one free-text search over all text columns,
 * select filters for chosen columns, pagination with a page-size choice, and a sticky header.
 * Columns mark numeric cells with `meta: { numeric: true }` to right-align them. The body scrolls in
 * a box of its own (a long list) unless `fullHeight`; `rowProps` makes rows clickable or highlighted.
 */
export function DataTable<T>({
  data,
  columns,
  label,
  filters = [],
  initialSorting = [],
  initialPageSize = 50,
  noMatches,
  getRowId,
  searchPlaceholder = "Title, format, model…",
  fullHeight = false,
  rowProps,
  initialView,
  onViewChange,
  actions,
}: DataTableProps<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialView?.sorting ?? initialSorting);
  const [columnFilters, setColumnFilters] = useState<ColumnFiltersState>(initialView?.columnFilters ?? []);
  const [globalFilter, setGlobalFilter] = useState(initialView?.globalFilter ?? "");
  const [pagination, setPagination] = useState({ pageIndex: initialView?.pageIndex ?? 0, pageSize: initialView?.pageSize ?? initialPageSize });
  const firstPage = () => setPagination((p) => (p.pageIndex === 0 ? p : { ...p, pageIndex: 0 }));
  const table = useReactTable({
    data,
    columns,
    state: { sorting, columnFilters, globalFilter, pagination },
    // Filters, search and sort change which rows come first: each starts again from page one.
    onSortingChange: (u) => (setSorting(u), firstPage()),
    onColumnFiltersChange: (u) => (setColumnFilters(u), firstPage()),
    onGlobalFilterChange: (u) => (setGlobalFilter(u), firstPage()),
    onPaginationChange: setPagination,
    // The page of a link is kept (tanstack would reset it whenever the data changes).
    autoResetPageIndex: false,
    globalFilterFn: "includesString",
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getFacetedRowModel: getFacetedRowModel(),
    getFacetedUniqueValues: getFacetedUniqueValues(),
    getPaginationRowModel: getPaginationRowModel(),
    ...(getRowId ? { getRowId } : {}),
  });
  const searchId = `${label.toLowerCase().replace(/\W+/g, "-")}-search`;
  const rows = table.getRowModel().rows;
  const widths = columns.map((c) => c.meta?.width);
  const fixed = widths.some((w) => w !== undefined);

  // A linked page past the end (fewer rows now) shows the last page instead of nothing.
  const pageCount = table.getPageCount();
  useEffect(() => {
    if (pageCount > 0 && pagination.pageIndex >= pageCount) setPagination((p) => ({ ...p, pageIndex: pageCount - 1 }));
  }, [pageCount, pagination.pageIndex]);

  const report = useRef(onViewChange);
  report.current = onViewChange;
  useEffect(() => {
    report.current?.({ sorting, columnFilters, globalFilter, pageIndex: pagination.pageIndex, pageSize: pagination.pageSize });
  }, [sorting, columnFilters, globalFilter, pagination]);

  return (
    <div className="card">
      <div className="dt-toolbar" role="search">
        <div className="field dt-search">
          <label htmlFor={searchId}>Search</label>
          <input
            id={searchId}
            className="input"
            type="search"
            placeholder={searchPlaceholder}
            value={globalFilter}
            onChange={(e) => setGlobalFilter(e.target.value)}
          />
        </div>
        {filters.map((f) => {
          const column = table.getColumn(f.columnId);
          return column ? <FilterSelect key={f.columnId} column={column} label={f.label} /> : null;
        })}
        {actions ? <div className="dt-actions">{actions(table.getPrePaginationRowModel().rows.map((row) => row.original))}</div> : null}
      </div>
      <div className={fullHeight ? "dt-scroll dt-full" : "dt-scroll"}>
        <table
          className={fixed ? "dt dt-fixed" : "dt"}
          aria-label={label}
          style={fixed ? { minWidth: widths.reduce<number>((sum, w) => sum + (w ?? FLEX_MIN_WIDTH), 0) } : undefined}
        >
          {fixed ? (
            <colgroup>
              {widths.map((w, i) => (
                <col key={i} style={w === undefined ? undefined : { width: w }} />
              ))}
            </colgroup>
          ) : null}
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <SortHeader key={header.id} header={header} />
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td className="dt-empty" colSpan={table.getVisibleLeafColumns().length}>
                  {noMatches ?? "No rows match the filters."}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id} {...rowProps?.(row.original)}>
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={cellClass(cell.column.columnDef.meta)}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <Pagination table={table} />
    </div>
  );
}

/** The least a column without a width gets in a fixed layout (before the table scrolls sideways). */
const FLEX_MIN_WIDTH = 240;

function cellClass(meta: { numeric?: boolean; truncate?: boolean } | undefined): string | undefined {
  const names = [meta?.numeric ? "num" : "", meta?.truncate ? "dt-clip" : ""].filter(Boolean);
  return names.length > 0 ? names.join(" ") : undefined;
}
