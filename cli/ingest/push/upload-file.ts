import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { isRetryableStatus, PUSH_ATTEMPTS, retryDelayMs } from "@/lib/ingest/push/push-state";

export type PushOutcome = { status: "imported" | "duplicate"; uploadId?: string; sessions: number } | { status: "failed"; message: string };

export interface PushClient {
  to: string;
  key: string;
  /** Waits between retries (tests pass one that records instead of sleeping). */
  sleep: (ms: number) => Promise<void>;
  /** Polls of a queued import, and the wait between them. */
  pollMs?: number;
  onRetry?: (message: string) => void;
}

interface UploadAnswer {
  ok: boolean;
  code?: string;
  message?: string;
  data?: { status: string; importId?: string; uploadId?: string; sessions?: unknown[]; sessionCount?: number };
}

/**
 * Sends one file to `POST /api/v1/uploads`, retrying rate limits, server errors and dropped
 * connections (PUSH_ATTEMPTS in all, waits from retryDelayMs); a file the studio refuses (4xx) fails
 * at once with its message. A large file the studio queues (202) is followed at
 * `GET /api/uploads/imports/<id>` until it is imported or refused.
 */
export async function uploadFile(client: PushClient, path: string): Promise<PushOutcome> {
  const url = new URL(`/api/v1/uploads?name=${encodeURIComponent(basename(path))}`, client.to);
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
      response = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${client.key}`, "content-type": "application/octet-stream" },
        body,
        duplex: "half",
      } as RequestInit);
    } catch (error) {
      if (attempt >= PUSH_ATTEMPTS) return { status: "failed", message: `the studio could not be reached: ${causeOf(error)}` };
      await retry(client, attempt, undefined, `could not reach ${client.to} (${causeOf(error)})`);
      continue;
    }
    const answer = (await response.json().catch(() => ({ ok: false, message: `HTTP ${response.status} without a JSON body` }))) as UploadAnswer;
    if (isRetryableStatus(response.status)) {
      if (attempt >= PUSH_ATTEMPTS)
        return { status: "failed", message: `HTTP ${response.status}: ${answer.message ?? "no message"} (gave up after ${PUSH_ATTEMPTS} attempts)` };
      await retry(client, attempt, Number(response.headers.get("retry-after") ?? Number.NaN), `HTTP ${response.status}: ${answer.message ?? ""}`);
      continue;
    }
    if (!response.ok || !answer.ok || !answer.data)
      return { status: "failed", message: `HTTP ${response.status} ${answer.code ?? ""}: ${answer.message ?? "refused"}`.replace("  ", " ") };
    if (response.status === 202 && answer.data.importId) return followImport(client, answer.data.importId);
    return settled(answer.data);
  }
}

async function followImport(client: PushClient, importId: string): Promise<PushOutcome> {
  const url = new URL(`/api/uploads/imports/${encodeURIComponent(importId)}`, client.to);
  for (let failures = 0; ;) {
    await client.sleep(client.pollMs ?? 1000);
    let response: Response;
    try {
      response = await fetch(url, { headers: { authorization: `Bearer ${client.key}` } });
    } catch (error) {
      if (++failures >= PUSH_ATTEMPTS) return { status: "failed", message: `lost the studio while it imported (${causeOf(error)})` };
      continue;
    }
    const answer = (await response.json().catch(() => ({ ok: false }))) as UploadAnswer;
    if (isRetryableStatus(response.status)) {
      if (++failures >= PUSH_ATTEMPTS) return { status: "failed", message: `HTTP ${response.status} while following the import` };
      continue;
    }
    if (!answer.ok || !answer.data) return { status: "failed", message: answer.message ?? `HTTP ${response.status}` };
    if (answer.data.status === "queued" || answer.data.status === "importing") continue;
    return settled(answer.data);
  }
}

function settled(data: NonNullable<UploadAnswer["data"]>): PushOutcome {
  const sessions = Array.isArray(data.sessions) ? data.sessions.length : (data.sessionCount ?? 0);
  if (data.status === "imported" || data.status === "duplicate")
    return { status: data.status, sessions, ...(data.uploadId ? { uploadId: data.uploadId } : {}) };
  return { status: "failed", message: `the studio answered ${data.status}` };
}

async function retry(client: PushClient, attempt: number, retryAfterSeconds: number | undefined, why: string): Promise<void> {
  const ms = retryDelayMs(attempt, Number.isNaN(retryAfterSeconds) ? undefined : retryAfterSeconds);
  client.onRetry?.(`${why}; retrying in ${Math.round(ms / 100) / 10} s`);
  await client.sleep(ms);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
