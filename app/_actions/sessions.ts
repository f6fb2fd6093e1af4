"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionFail, actionOk, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { deleteSession } from "@/server/ingest/retention/delete-session";
import { getBlobStore } from "@/server/storage/configured-blob-store";

const SessionIdSchema = z.string({ message: "session id is required" }).min(1, "session id is required");

/** Admin: delete one session (and its upload when it was the upload's only session). */
export async function deleteSessionAction(sessionId: unknown): Promise<ActionResult<{ upload: "deleted" | "kept"; fileName: string; otherSessions: number }>> {
  await requireUser("admin");
  const id = SessionIdSchema.safeParse(sessionId);
  if (!id.success) return actionFail("invalid_input", id.error.issues[0]!.message);
  const outcome = await deleteSession(getDb(), getBlobStore(), id.data);
  if (!outcome.ok) return actionFail(outcome.code, outcome.message);
  revalidatePath("/traces");
  return actionOk({ upload: outcome.upload, fileName: outcome.fileName, otherSessions: outcome.otherSessions });
}
