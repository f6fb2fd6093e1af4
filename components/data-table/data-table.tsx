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
import { useState, type HTMLAttributes, type ReactNode } from "react";
import { FilterSelect } from "./filter-select";
import { Pagination } from "./pagination";
import { SortHeader } from "./sort-header";

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
}

/**
 * A reusable client-side table: sorting by header, one free-text search over all text columns,
 * select filters for chosen columns, pagination with a page-size choice, and a sticky header.
 * Columns mark numeric cells with `meta: { numeric: true }` to right-align them. The body scrolls in
 * a box of its own (a long list) unless `fullHeight`; `rowProps` makes rows clickable or highlighted.
 */
export function DataTable<T>({ data, columns, label, filters = [], initialSorting = [], initialPageSize = 50, noMatches, getRowId, searchPlaceholder = "Title, format, model…", fullHeight = false, rowProps }: DataTableProps<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const [columnFilters, setColumnFilters] = useState<ColumnFiltersState>([]);
  const [globalFilter, setGlobalFilter] = useState("");
  const table = useReactTable({
    data,
    columns,
    state: { sorting, columnFilters, globalFilter },
    initialState: { pagination: { pageIndex: 0, pageSize: initialPageSize } },
    onSortingChange: setSorting,
    onColumnFiltersChange: setColumnFilters,
    onGlobalFilterChange: setGlobalFilter,
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
            onChange={(e) => {
              setGlobalFilter(e.target.value);
              table.setPageIndex(0);
            }}
          />
        </div>
        {filters.map((f) => {
          const column = table.getColumn(f.columnId);
          return column ? <FilterSelect key={f.columnId} column={column} label={f.label} /> : null;
        })}
      </div>
      <div className={fullHeight ? "dt-scroll dt-full" : "dt-scroll"}>
        <table className="dt" aria-label={label}>
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
                    <td key={cell.id} className={cell.column.columnDef.meta?.numeric ? "num" : undefined}>
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
