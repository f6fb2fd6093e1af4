"use client";

import type { ColumnMapping } from "@/lib/online/usage/columns";
import { REQUIRED_FIELDS, USAGE_FIELDS, type UsageField } from "@/lib/online/usage/schema";

const LABELS: Record<UsageField, string> = {
  timestamp: "Timestamp",
  account: "Account id or e-mail",
  group: "Group (optional)",
  surface: "Surface (optional)",
  inputTokens: "Input tokens (whole prompt)",
  cachedInputTokens: "Cached input tokens",
  cacheWriteTokens: "Cache-write tokens",
  outputTokens: "Output tokens",
  model: "Model",
};

/** One select per usage field, preset to Tracefold's guess; required fields cannot be left unmapped. */
export function MappingSelects({
  headers,
  mapping,
  onChange,
}: {
  headers: string[];
  mapping: ColumnMapping;
  onChange: (field: UsageField, column: string) => void;
}) {
  return (
    <div className="grid-3" style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(220px, 1fr))", gap: 12 }}>
      {USAGE_FIELDS.map((field) => {
        const required = REQUIRED_FIELDS.includes(field);
        return (
          <label key={field} className="field">
            {LABELS[field]}
            <select
              className="select"
              value={mapping[field] ?? ""}
              onChange={(e) => onChange(field, e.target.value)}
              aria-invalid={required && !mapping[field] ? true : undefined}
            >
              <option value="">{required ? "— choose a column —" : "— none —"}</option>
              {headers.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
          </label>
        );
      })}
    </div>
  );
}
