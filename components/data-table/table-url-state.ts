import type { ColumnFiltersState, SortingState } from "@tanstack/react-table";

/** What a table's URL keeps: sort, select filters, the search text and the page. */
export interface TableViewState {
  sorting: SortingState;
  columnFilters: ColumnFiltersState;
  globalFilter: string;
  pageIndex: number;
  pageSize: number;
}

export interface TableUrlOptions {
  /** Columns a `sort` parameter may name. */
  sortable: readonly string[];
  /** Select-filter columns; each is its own parameter (`format=claude_code_jsonl`). */
  filters: readonly string[];
  /** Page sizes the footer offers (anything else in a URL is ignored). */
  pageSizes: readonly number[];
  defaultSorting: SortingState;
  defaultPageSize: number;
}

/** Parameter names besides the filters' own column ids. */
export const SEARCH_PARAM = "q";
export const SORT_PARAM = "sort";
export const PAGE_PARAM = "page";
export const SIZE_PARAM = "size";

/**
 * Reads a table's view from the page's query string, so a link, a reload or Back shows the same
 * rows. Forms: `sort=-uploadedAt,title` (a leading `-` sorts descending; `sort=` with nothing is
 * "unsorted"), `q=text`, one parameter per select filter, `page=2` (1-based), `size=100`. Unknown
 * columns, sizes the footer does not offer and malformed pages fall back to the defaults, so a
 * hand-edited link never breaks the page.
 */
export function readTableState(params: URLSearchParams, options: TableUrlOptions): TableViewState {
  const sortText = params.get(SORT_PARAM);
  const sorting =
    sortText === null
      ? options.defaultSorting
      : sortText
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s !== "")
          .map((s) => (s.startsWith("-") ? { id: s.slice(1), desc: true } : { id: s, desc: false }))
          .filter((s, i, all) => options.sortable.includes(s.id) && all.findIndex((o) => o.id === s.id) === i);
  const columnFilters = options.filters.flatMap((id) => {
    const value = params.get(id);
    return value === null || value === "" ? [] : [{ id, value }];
  });
  const size = Number(params.get(SIZE_PARAM));
  const page = Number(params.get(PAGE_PARAM));
  return {
    sorting,
    columnFilters,
    globalFilter: params.get(SEARCH_PARAM) ?? "",
    pageIndex: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    pageSize: options.pageSizes.includes(size) ? size : options.defaultPageSize,
  };
}

/**
 * The query string for a table's view on top of the current one (parameters the table does not
 * own are kept). Defaults are left out, so an untouched table keeps a clean URL.
 */
export function writeTableState(current: URLSearchParams, state: TableViewState, options: TableUrlOptions): URLSearchParams {
  const next = new URLSearchParams(current);
  const set = (key: string, value: string | undefined) => (value === undefined ? next.delete(key) : next.set(key, value));
  const sort = state.sorting.map((s) => `${s.desc ? "-" : ""}${s.id}`).join(",");
  const defaultSort = options.defaultSorting.map((s) => `${s.desc ? "-" : ""}${s.id}`).join(",");
  set(SORT_PARAM, sort === defaultSort ? undefined : sort);
  for (const id of options.filters) {
    const value = state.columnFilters.find((f) => f.id === id)?.value;
    set(id, typeof value === "string" && value !== "" ? value : undefined);
  }
  set(SEARCH_PARAM, state.globalFilter === "" ? undefined : state.globalFilter);
  set(PAGE_PARAM, state.pageIndex > 0 ? String(state.pageIndex + 1) : undefined);
  set(SIZE_PARAM, state.pageSize === options.defaultPageSize ? undefined : String(state.pageSize));
  return next;
}
