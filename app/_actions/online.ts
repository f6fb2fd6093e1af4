"use server";

import { z } from "zod";
import type { UsagePreview } from "@/lib/online/usage/preview";
import { actionFail, actionOk, invalidInput, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { PREVIEW_BYTES, previewUsageSample } from "@/server/online/preview-usage-log";
import { usageLogFromTraces } from "@/server/online/usage-from-traces";
import { getBlobStore } from "@/server/storage/configured-blob-store";

const PreviewSchema = z.object({
  sample: z.string().max(PREVIEW_BYTES * 2, `sample: at most ${PREVIEW_BYTES} bytes of the file's beginning`),
  format: z.enum(["csv", "jsonl"], { error: "format: csv or jsonl" }),
  complete: z.boolean(),
  overrides: z.record(z.string(), z.string()).optional(),
});

/** The column-mapping step: the guessed mapping (with the user's choices) and the first rows read with it. */
export async function previewUsageAction(input: z.input<typeof PreviewSchema>): Promise<ActionResult<UsagePreview>> {
  await requireUser("reviewer");
  const parsed = PreviewSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  try {
    return actionOk(
      await previewUsageSample(parsed.data.sample, {
        format: parsed.data.format,
        complete: parsed.data.complete,
        ...(parsed.data.overrides ? { overrides: parsed.data.overrides } : {}),
      }),
    );
  } catch (error) {
    if (error instanceof RangeError) return actionFail("invalid_mapping", error.message);
    throw error;
  }
}

const TraceUsageSchema = z.object({ account: z.enum(["uploader", "session"], { error: "account: uploader or session" }) });

/**
 * *Use usage from uploaded traces*: builds a usage log from the provider usage inside the stored
 * traces and answers its id (a new log, or the one already built from the same traces). A few rows
 * per model call, imported like an upload — small enough for one request.
 */
export async function usageFromTracesAction(input: z.input<typeof TraceUsageSchema>): Promise<ActionResult<{ logId: string; created: boolean; rows: number }>> {
  const user = await requireUser("reviewer");
  const parsed = TraceUsageSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  const outcome = await usageLogFromTraces({ db: getDb(), store: getBlobStore(), userId: user.id, account: parsed.data.account });
  switch (outcome.status) {
    case "imported":
      return actionOk({ logId: outcome.logId, created: true, rows: outcome.rows });
    case "duplicate":
      return actionOk({ logId: outcome.logId, created: false, rows: 0 });
    case "empty":
      return actionFail(
        "no_usage",
        outcome.sessions === 0
          ? "No uploaded trace carries provider usage. Claude Code, Codex and mini-swe-agent traces record it per model call: upload some on the Traces page first."
          : `${outcome.sessions} trace(s) carry provider usage, but none of their ${outcome.skipped} call(s) has a timestamp to place it on the hourly curve.`,
      );
    case "failed":
      return actionFail("import_failed", outcome.message);
  }
}
