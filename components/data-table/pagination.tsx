"use client";

import type { Table } from "@tanstack/react-table";
import { useId } from "react";
import { plural } from "@/lib/util/plural";

export const PAGE_SIZES = [25, 50, 100, 250];

/** Footer: how many rows match, page size, and previous/next page. */
export function Pagination<T>({ table }: { table: Table<T> }) {
  const sizeId = useId();
  const { pageIndex, pageSize } = table.getState().pagination;
  const matching = table.getFilteredRowModel().rows.length;
  const total = table.getCoreRowModel().rows.length;
  const pages = Math.max(1, table.getPageCount());
  return (
    <div className="dt-footer">
      <span aria-live="polite">{matching === total ? rowsLabel(total) : `${matching.toLocaleString("en-US")} of ${rowsLabel(total)}`}</span>
      <span className="spacer" />
      <label htmlFor={sizeId}>Rows per page</label>
      <select id={sizeId} className="select" value={pageSize} onChange={(e) => table.setPageSize(Number(e.target.value))}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
      <span>
        Page {Math.min(pageIndex + 1, pages)} of {pages}
      </span>
      <button type="button" className="btn btn-sm" onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
        Previous
      </button>
      <button type="button" className="btn btn-sm" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
        Next
      </button>
    </div>
  );
}

function rowsLabel(n: number): string {
  return plural(n, "row");
}
