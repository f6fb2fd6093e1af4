import { open } from "node:fs/promises";
import { previewUsage, type UsagePreview } from "@/lib/online/usage/preview";
import type { UsageFormat } from "@/lib/online/usage/read-usage";

/** Bytes read from the start of a file for the column-mapping step: enough for dozens of rows. */
export const PREVIEW_BYTES = 64 * 1024;

/**
 * The column-mapping step for a file on disk (the upload's temp file, or a stored blob): headers,
 * the guessed mapping with the user's overrides, and the first rows parsed with it, each either a
 * row or a located problem. Reads only the first `PREVIEW_BYTES`.
 */
export async function previewUsageFile(
  path: string,
  options: { format: UsageFormat; overrides?: Record<string, string>; limit?: number },
): Promise<UsagePreview> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(PREVIEW_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, PREVIEW_BYTES, 0);
    const complete = bytesRead < PREVIEW_BYTES;
    // Cut at the last newline so a multi-byte character is never split.
    const bytes = complete ? buffer.subarray(0, bytesRead) : buffer.subarray(0, buffer.lastIndexOf(10, bytesRead - 1) + 1);
    return await previewUsage(bytes.toString("utf8"), {
      format: options.format,
      complete,
      limit: options.limit ?? 20,
      ...(options.overrides ? { overrides: options.overrides } : {}),
    });
  } finally {
    await handle.close();
  }
}

/** The same step for the beginning of a file the browser read itself (`file.slice(0, PREVIEW_BYTES)`). */
export async function previewUsageSample(
  sample: string,
  options: { format: UsageFormat; complete: boolean; overrides?: Record<string, string>; limit?: number },
): Promise<UsagePreview> {
  return previewUsage(sample, {
    format: options.format,
    complete: options.complete,
    limit: options.limit ?? 20,
    ...(options.overrides ? { overrides: options.overrides } : {}),
  });
}
