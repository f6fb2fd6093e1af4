import type { RedactionPreview } from "@/lib/redact";
import type { UploadResponse } from "@/server/trace/import/upload-response";

/** The in-browser check of a picked file for secrets (see preview-file.ts). */
export type PreviewState = { status: "scanning" } | { status: "done"; result: RedactionPreview } | { status: "failed"; message: string };

/** One file in the upload list, from picked to answered. */
export interface UploadItem {
  key: string;
  file: File;
  /** 0..1 of the bytes sent. */
  progress: number;
  /**
   * `picked`: chosen and checked for secrets in the browser, nothing sent until the user confirms;
   * `waiting`: a large file stored and queued for a job worker's import (the server said "queued").
   */
  phase: "picked" | "queued" | "uploading" | "importing" | "waiting" | "done";
  preview?: PreviewState;
  /** While `waiting`: where the job worker is with it. */
  importStatus?: "queued" | "importing";
  response?: UploadResponse;
}

/** The status label and style of a row: the outcome once answered, else the phase. */
export function statusOf(item: UploadItem): { label: string; tone: "imported" | "duplicate" | "failed" | "pending" } {
  if (item.phase === "picked") return { label: item.preview?.status === "scanning" ? "checking" : "ready", tone: "pending" };
  if (item.phase === "waiting") return { label: item.importStatus === "importing" ? "importing in a worker" : "queued for import", tone: "pending" };
  if (item.phase !== "done" || !item.response) return { label: item.phase, tone: "pending" };
  if (!item.response.ok) return { label: "failed", tone: "failed" };
  return item.response.data.status === "duplicate" ? { label: "duplicate", tone: "duplicate" } : { label: "imported", tone: "imported" };
}

/**
 * What a row's bar shows: the share of bytes sent, a busy bar while a worker imports (no fraction
 * to report), or a failed state once the server refused the file — never the full bar a success
 * shows, since a refused file left nothing behind.
 */
export type ProgressView = { kind: "bar"; value: number } | { kind: "busy" } | { kind: "failed" };

export function progressView(item: UploadItem): ProgressView {
  if (item.phase === "done" && item.response && !item.response.ok) return { kind: "failed" };
  if (item.phase === "waiting") return { kind: "busy" };
  return { kind: "bar", value: item.phase === "queued" ? 0 : item.progress };
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
