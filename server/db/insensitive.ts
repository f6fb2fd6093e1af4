import type { Db } from "./client";

/**
 * A case-insensitive `contains`/`startsWith` filter on either engine: PostgreSQL needs
 * `mode: "insensitive"` (ILIKE); SQLite's LIKE already ignores ASCII case and its client's types
 * have no `mode`.
 */
export function insensitive(db: Db): Record<string, never> {
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  return (provider === "postgresql" ? { mode: "insensitive" } : {}) as Record<string, never>;
}
