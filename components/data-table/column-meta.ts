import type { RowData } from "@tanstack/react-table";

/**
 * Extra per-column settings the data table understands. Declared on tanstack's ColumnMeta so
 * `columnDef.meta.numeric` is typed everywhere.
 */
declare module "@tanstack/react-table" {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Right-aligned tabular numbers. */
    numeric?: boolean;
    /**
     * Column width in px. When any column has one the table lays out fixed (`<colgroup>`): the
     * columns without a width share what is left, so long cells cannot push others off screen.
     */
    width?: number;
    /** One line, cut with an ellipsis (the cell should carry the full text as its title). */
    truncate?: boolean;
  }
}

export {};
