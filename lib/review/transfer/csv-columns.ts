/**
 * The CSV layout of labels: one row per label version, one column per leaf field, in this order.
 * Nested fields are flattened (`ref.sessionId` → `sessionId`, `future.start` → `future_start`,
 * `sides.A` → `sides_A`). An empty cell means the field is absent, except `supersedes`, where it
 * means null. Column names are part of the export contract.
 */
export type CellType = "string" | "number" | "boolean" | "nullable-number";

export interface CsvColumn {
  name: string;
  path: readonly string[];
  type: CellType;
}

const col = (name: string, path: string, type: CellType = "string"): CsvColumn => ({ name, path: path.split("."), type });
const span = (which: "future" | "prefix"): CsvColumn[] => [
  col(`${which}_message`, `${which}.message`, "number"),
  col(`${which}_part`, `${which}.part`, "number"),
  col(`${which}_start`, `${which}.start`, "number"),
  col(`${which}_end`, `${which}.end`, "number"),
  col(`${which}_text`, `${which}.text`),
];

export const CSV_COLUMNS: readonly CsvColumn[] = [
  col("kind", "kind"),
  col("labelId", "labelId"),
  col("version", "version", "number"),
  col("supersedes", "supersedes", "nullable-number"),
  col("reviewer", "reviewer"),
  col("createdAt", "createdAt"),
  col("retracted", "retracted", "boolean"),
  col("comment", "comment"),
  col("sessionId", "ref.sessionId"),
  col("cut", "ref.cut", "number"),
  col("runId", "ref.runId"),
  col("policy", "policy"),
  col("decision", "decision"),
  col("dependencyId", "dependencyId"),
  col("value", "value"),
  col("type", "type"),
  ...span("future"),
  ...span("prefix"),
  col("category", "category"),
  col("culpritId", "culpritId"),
  col("sides_A", "sides.A"),
  col("sides_B", "sides.B"),
  col("sides_swapped", "sides.swapped", "boolean"),
  col("verdict", "verdict"),
  col("rationale", "rationale"),
  col("confidence", "confidence", "number"),
];

const byPath = new Map(CSV_COLUMNS.map((c) => [c.path.join("."), c.name]));

/** The column a zod issue path points at (a whole nested object → its first column's prefix). */
export function columnFor(path: readonly PropertyKey[]): string {
  const key = path.map(String).join(".");
  return byPath.get(key) ?? (key === "ref" ? "sessionId" : key.replace(/\./g, "_"));
}
