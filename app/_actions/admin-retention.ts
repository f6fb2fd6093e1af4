"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionFail, actionOk, invalidInput, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { deleteUploads, uploadsOlderThan, type DeleteOutcome } from "@/server/ingest/retention/delete-uploads";
import { getBlobStore } from "@/server/storage/configured-blob-store";
import { parseAge } from "@/lib/util/parse-age";

const RetentionSchema = z.object({
  olderThan: z.string({ message: "give an age" }).refine((v) => parseAge(v) !== null, "an age like 30d, 12h or 90m"),
  confirm: z.literal("delete", { message: "type delete to confirm" }),
});

/** Admin: delete every upload stored before now − age (the list is read again here, not trusted from the page). */
export async function applyRetentionAction(_previous: ActionResult<DeleteOutcome> | null, form: FormData): Promise<ActionResult<DeleteOutcome>> {
  await requireUser("admin");
  const input = RetentionSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return invalidInput(input.error);
  const db = getDb();
  const due = await uploadsOlderThan(db, new Date(Date.now() - parseAge(input.data.olderThan)!));
  if (due.length === 0) return actionFail("nothing_due", "No upload is older than that.");
  const outcome = await deleteUploads(
    db,
    getBlobStore(),
    due.map((u) => u.id),
  );
  revalidatePath("/admin/retention");
  revalidatePath("/traces");
  return actionOk(outcome);
}
