import { z } from "zod";
import { filterFieldErrors, SuiteFilterSchema } from "@/lib/evaluation/suites/suite-filter";
import type { Db } from "../../db/client";
import { isUniqueViolation } from "../../db/unique-violation";

export const SaveSuiteFilterSchema = z.object({
  name: z.string().trim().min(1, "give the filter a name").max(100, "the name is at most 100 characters"),
  filter: SuiteFilterSchema,
});

export type SaveSuiteFilterOutcome =
  { ok: true; id: string } | { ok: false; code: "invalid_input" | "name_taken"; message: string; fieldErrors: Record<string, string[]> };

/**
 * Saves a named suite filter, or replaces the filter of the one with that name (saving again
 * under the same name is how a filter is edited). Runs created earlier keep their own copy.
 */
export async function saveSuiteFilter(db: Db, input: unknown, createdById?: string): Promise<SaveSuiteFilterOutcome> {
  const parsed = SaveSuiteFilterSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors = filterFieldErrors(parsed.error);
    return {
      ok: false,
      code: "invalid_input",
      message: Object.entries(fieldErrors)
        .map(([k, v]) => `${k}: ${v.join(" ")}`)
        .join("; "),
      fieldErrors,
    };
  }
  const { name, filter } = parsed.data;
  const json = JSON.stringify(filter);
  try {
    const row = await db.savedSuiteFilter.upsert({
      where: { name },
      create: { name, filter: json, ...(createdById ? { createdById } : {}) },
      update: { filter: json },
    });
    return { ok: true, id: row.id };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return {
      ok: false,
      code: "name_taken",
      message: `a filter named ${JSON.stringify(name)} was saved at the same moment; try again`,
      fieldErrors: { name: ["saved at the same moment by someone else"] },
    };
  }
}

/** Deletes a saved filter; false when there was none with that id. */
export async function deleteSuiteFilter(db: Db, id: string): Promise<boolean> {
  const { count } = await db.savedSuiteFilter.deleteMany({ where: { id } });
  return count > 0;
}
