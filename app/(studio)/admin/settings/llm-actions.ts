"use server";

import { revalidatePath } from "next/cache";
import { actionFail, actionOk, invalidInput, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { testLlmConnection, type ConnectionTestResult } from "@/server/llm/test-connection";
import { clearLlmSettings, LlmSettingsError, LlmSettingsFormSchema, saveLlmSettings, type LlmSettingsView } from "@/server/settings/llm-settings";

/** Admin: store the LLM endpoint (the key encrypted; an empty key field keeps the stored one). */
export async function saveLlmSettingsAction(_previous: ActionResult<LlmSettingsView> | null, form: FormData): Promise<ActionResult<LlmSettingsView>> {
  const admin = await requireUser("admin");
  const input = LlmSettingsFormSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return invalidInput(input.error);
  try {
    const saved = await saveLlmSettings(getDb(), input.data, admin.id);
    revalidatePath("/admin/settings");
    return actionOk(saved);
  } catch (error) {
    if (error instanceof LlmSettingsError) return actionFail("invalid_input", "Check the highlighted fields.", { [error.field]: [error.message] });
    throw error;
  }
}

/** Admin: forget the stored endpoint and its key (the argument must be "clear": a stray call changes nothing). */
export async function clearLlmSettingsAction(confirm: unknown): Promise<ActionResult<null>> {
  await requireUser("admin");
  if (confirm !== "clear") return actionFail("invalid_input", 'pass "clear" to remove the stored endpoint');
  await clearLlmSettings(getDb());
  revalidatePath("/admin/settings");
  return actionOk(null);
}

/** Admin: one small call to the endpoint in effect, to check URL, model and key. */
export async function testLlmConnectionAction(): Promise<ActionResult<ConnectionTestResult>> {
  await requireUser("admin");
  return actionOk(await testLlmConnection(getDb()));
}
