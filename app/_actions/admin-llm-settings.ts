"use server";

import { revalidatePath } from "next/cache";
import { actionFail, actionOk, invalidInput, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { LLM_SLOTS, type LlmSlot } from "@/server/llm/slots";
import { testLlmConnection, type ConnectionTestResult } from "@/server/llm/test-connection";
import { clearLlmSettings, LlmSettingsError, LlmSettingsFormSchema, saveLlmSettings, type LlmSettingsView } from "@/server/llm/stored-settings";
import { processEnv } from "@/server/env";

/** The slot an action names; anything else is refused. */
function slotArg(value: unknown): LlmSlot | undefined {
  return (LLM_SLOTS as readonly unknown[]).includes(value) ? (value as LlmSlot) : undefined;
}

/** Admin: store an LLM endpoint, the default or a purpose's (the key encrypted; an empty key field keeps the stored one). */
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

/** Admin: forget a stored endpoint and its key (the argument must be "clear": a stray call changes nothing). */
export async function clearLlmSettingsAction(confirm: unknown, slotName: unknown = "default"): Promise<ActionResult<null>> {
  await requireUser("admin");
  const slot = slotArg(slotName);
  if (confirm !== "clear" || !slot) return actionFail("invalid_input", 'pass "clear" and an endpoint slot to remove a stored endpoint');
  await clearLlmSettings(getDb(), slot);
  revalidatePath("/admin/settings");
  return actionOk(null);
}

/** Admin: one small call to the endpoint in effect for a slot, to check URL, model and key. */
export async function testLlmConnectionAction(slotName: unknown = "default"): Promise<ActionResult<ConnectionTestResult>> {
  await requireUser("admin");
  const slot = slotArg(slotName);
  if (!slot) return actionFail("invalid_input", "unknown endpoint slot");
  return actionOk(await testLlmConnection(getDb(), processEnv(), slot));
}
