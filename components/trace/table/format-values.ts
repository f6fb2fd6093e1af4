/**
 * Deterministic display formats for the studio. Server and browser must render the same text
 * (hydration), so these never depend on the viewer's locale or time zone. Dates and times go
 * through `formatDateTime` (lib/util/format-date-time.ts), the one date format of the studio.
 */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}
