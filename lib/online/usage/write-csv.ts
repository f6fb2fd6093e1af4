import { USAGE_FIELDS, type UsageRow } from "./schema";

/** CSV header in the canonical field names (what `guessMapping` maps back without help). */
export const USAGE_CSV_HEADER = USAGE_FIELDS.join(",");

/** One usage row as a CSV line (timestamps as ISO-8601 UTC; cells quoted only when needed). */
export function usageRowToCsv(row: UsageRow): string {
  return USAGE_FIELDS.map((field) => {
    const value = row[field];
    if (value === undefined) return "";
    const text = field === "timestamp" ? new Date(value as number).toISOString() : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  }).join(",");
}
