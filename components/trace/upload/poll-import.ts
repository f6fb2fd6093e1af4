import type { UploadResponse } from "@/server/trace/import/upload-response";

/** How often the page asks about a queued import (a large file's import takes seconds to minutes). */
const POLL_MS = 1_000;

/** Whether an answer says the file is still waiting for, or in, its job worker's import. */
export function isPending(response: UploadResponse): response is UploadResponse & { ok: true; data: { status: "queued" | "importing"; importId: string } } {
  return response.ok && (response.data.status === "queued" || response.data.status === "importing");
}

/**
 * Follows a large upload that a job worker imports: polls `GET /api/uploads/imports/<id>` and
 * reports each pending state, until the answer is final — then it is the same body the upload
 * itself gives for a file imported during the request. A network error is retried at the next tick.
 */
export async function pollImport(importId: string, onPending: (status: "queued" | "importing") => void): Promise<UploadResponse> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    let body: UploadResponse;
    try {
      const response = await fetch(`/api/uploads/imports/${encodeURIComponent(importId)}`, { cache: "no-store" });
      body = (await response.json()) as UploadResponse;
    } catch {
      continue;
    }
    if (!isPending(body)) return body;
    onPending(body.data.status);
  }
}
