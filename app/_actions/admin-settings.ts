"use server";

import { revalidatePath } from "next/cache";
import { actionOk, invalidInput, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { RedactionSettingsSchema, setRedactionSettings, type RedactionSettings } from "@/server/settings/redaction-settings";

/** Admin: whether uploads keep their raw original, whether e-mail addresses are redacted, which rules run, the allow-list. */
export async function setRedactionSettingsAction(_previous: ActionResult<RedactionSettings> | null, form: FormData): Promise<ActionResult<RedactionSettings>> {
  const admin = await requireUser("admin");
  const input = RedactionSettingsSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return invalidInput(input.error);
  const saved = await setRedactionSettings(getDb(), input.data, admin.id);
  revalidatePath("/admin/settings");
  return actionOk(saved);
}
