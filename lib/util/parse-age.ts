/**
 * An age on the command line or a form: `30d`, `12h`, `90m` or a bare number of days. Returns
 * milliseconds, or null when the text is not one (the caller says what was expected).
 */
export function parseAge(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(d|h|m)?\s*$/i.exec(text);
  if (!match) return null;
  const value = Number(match[1]);
  const unit = (match[2] ?? "d").toLowerCase();
  const ms = value * (unit === "d" ? 86_400_000 : unit === "h" ? 3_600_000 : 60_000);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}
