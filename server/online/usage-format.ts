import type { UsageFormat } from "@/lib/online/usage/read-usage";

/** CSV unless the name says JSON Lines — the same rule as `tracefold online` without `--format`. */
export function formatOf(fileName: string): UsageFormat {
  return /\.(jsonl|ndjson)$/i.test(fileName) ? "jsonl" : "csv";
}
