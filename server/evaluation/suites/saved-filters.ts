import { SuiteFilterSchema, type SuiteFilter } from "@/lib/evaluation/suites/suite-filter";
import type { Db } from "../../db/client";

/** A saved suite filter as the studio shows it. */
export interface SavedFilter {
  id: string;
  name: string;
  filter: SuiteFilter;
}

/**
 * Reads saved filters (name order). A row whose JSON no longer parses under the current schema is
 * left out rather than offered for a run it would break.
 */
export async function listSavedFilters(db: Db): Promise<SavedFilter[]> {
  const rows = await db.savedSuiteFilter.findMany({ orderBy: { name: "asc" }, select: { id: true, name: true, filter: true } });
  return rows.flatMap((row) => {
    const parsed = SuiteFilterSchema.safeParse(safeJson(row.filter));
    return parsed.success ? [{ id: row.id, name: row.name, filter: parsed.data }] : [];
  });
}

export async function findSavedFilter(db: Db, id: string): Promise<SavedFilter | null> {
  const row = await db.savedSuiteFilter.findUnique({ where: { id }, select: { id: true, name: true, filter: true } });
  if (!row) return null;
  const parsed = SuiteFilterSchema.safeParse(safeJson(row.filter));
  return parsed.success ? { id: row.id, name: row.name, filter: parsed.data } : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
