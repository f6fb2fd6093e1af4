"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionFail, actionOk, invalidInput, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { createKey, CreateKeyInputSchema } from "@/server/ingest/keys/create-key";
import type { KeyRecord } from "@/server/ingest/keys/key-record";
import { revokeKey } from "@/server/ingest/keys/revoke-key";

/** Admin: a new project API key, returned once with the key itself (only its hash is stored). */
export async function createKeyAction(
  _previous: ActionResult<KeyRecord & { key: string }> | null,
  form: FormData,
): Promise<ActionResult<KeyRecord & { key: string }>> {
  const admin = await requireUser("admin");
  const input = CreateKeyInputSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return invalidInput(input.error);
  const created = await createKey(getDb(), input.data, admin.id);
  revalidatePath("/admin/keys");
  return actionOk(created);
}

const RevokeKeySchema = z.object({ keyId: z.string({ message: "keyId is required" }).min(1, "keyId is required") });

/** Admin: revoke a key; requests with it get 401 from then on. */
export async function revokeKeyAction(_previous: ActionResult<KeyRecord> | null, form: FormData): Promise<ActionResult<KeyRecord>> {
  await requireUser("admin");
  const input = RevokeKeySchema.safeParse(Object.fromEntries(form));
  if (!input.success) return invalidInput(input.error);
  const revoked = await revokeKey(getDb(), input.data.keyId);
  if (!revoked) return actionFail("not_found", "No such API key.");
  revalidatePath("/admin/keys");
  return actionOk(revoked);
}
