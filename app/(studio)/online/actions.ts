"use server";

import { z } from "zod";
import type { UsagePreview } from "@/lib/online/preview";
import { actionFail, actionOk, invalidInput, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { PREVIEW_BYTES, previewUsageSample } from "@/server/online/preview-usage-log";

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
    return actionOk(await previewUsageSample(parsed.data.sample, { format: parsed.data.format, complete: parsed.data.complete, ...(parsed.data.overrides ? { overrides: parsed.data.overrides } : {}) }));
  } catch (error) {
    if (error instanceof RangeError) return actionFail("invalid_mapping", error.message);
    throw error;
  }
}
