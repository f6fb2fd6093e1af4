"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { filterFieldErrors, SuiteFilterSchema } from "@/lib/evaluation/suites/suite-filter";
import { actionFail, actionOk, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { resolveSuite } from "@/server/evaluation/suites/resolve-suite";
import { deleteSuiteFilter, saveSuiteFilter } from "@/server/evaluation/suites/save-suite-filter";

const PreviewSchema = z.object({ filter: SuiteFilterSchema, hard: z.boolean().default(false) });
const FilterIdSchema = z.string().min(1, "filter id is required");

/** Reviewer: how many stored sessions and replay cuts a filter (or the Hard Set of it) selects — the builder's live count. */
export async function previewSuiteAction(input: unknown): Promise<ActionResult<{ sessions: number; cuts: number }>> {
  await requireUser("reviewer");
  const parsed = PreviewSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", "Check the highlighted fields.", filterFieldErrors(parsed.error));
  const { filter, hard } = parsed.data;
  const suite = await resolveSuite(getDb(), hard ? { kind: "hard", filter } : { kind: "filter", filter });
  return actionOk({ sessions: suite.sessionIds.length, cuts: suite.cuts });
}

/** Reviewer: save a named suite filter (the same name replaces its filter). */
export async function saveSuiteFilterAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  const user = await requireUser("reviewer");
  const outcome = await saveSuiteFilter(getDb(), input, user.id);
  if (!outcome.ok) return actionFail(outcome.code, outcome.message, outcome.fieldErrors);
  revalidatePath("/evaluations");
  return actionOk({ id: outcome.id });
}

/** Reviewer: delete a saved filter (runs created with it keep their copy of the filter). */
export async function deleteSuiteFilterAction(id: unknown): Promise<ActionResult<{ deleted: boolean }>> {
  await requireUser("reviewer");
  const parsed = FilterIdSchema.safeParse(id);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues[0]!.message);
  const deleted = await deleteSuiteFilter(getDb(), parsed.data);
  if (!deleted) return actionFail("not_found", "That saved filter no longer exists.");
  revalidatePath("/evaluations");
  return actionOk({ deleted });
}
