import type { ColumnMapping } from "@/lib/online/usage/columns";
import type { UsageImportOutcome, UsageImportProgress } from "@/server/online/import-usage-log";

export type UsageUploadEvent = { type: "sending"; fraction: number } | ({ type: "progress" } & UsageImportProgress);
export type UsageUploadResult = { ok: true; outcome: UsageImportOutcome } | { ok: false; message: string };

/**
 * Sends a usage log with XMLHttpRequest (only XHR reports upload progress), then follows the
 * server's NDJSON answer line by line as the import reads the file, so the bar keeps moving.
 */
export function sendUsageLog(file: File, mapping: ColumnMapping, onEvent: (event: UsageUploadEvent) => void): Promise<UsageUploadResult> {
  return new Promise((resolve) => {
    const params = new URLSearchParams({ name: file.name, mapping: JSON.stringify(mapping) });
    const xhr = new XMLHttpRequest();
    let seen = 0;
    let result: UsageUploadResult | undefined;
    const readLines = () => {
      const text = xhr.responseText;
      let nl = text.indexOf("\n", seen);
      while (nl !== -1) {
        const line = text.slice(seen, nl);
        seen = nl + 1;
        nl = text.indexOf("\n", seen);
        try {
          const event = JSON.parse(line) as { type: string } & Record<string, unknown>;
          if (event.type === "progress") onEvent(event as unknown as UsageUploadEvent);
          else if (event.type === "result") result = { ok: true, outcome: event.outcome as UsageImportOutcome };
          else if (event.type === "error" || event.ok === false) result = { ok: false, message: String(event.message) };
        } catch {
          // a partial or foreign line: the final check reports it
        }
      }
    };
    xhr.open("PUT", `/api/online/uploads?${params.toString()}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => e.lengthComputable && e.total > 0 && onEvent({ type: "sending", fraction: e.loaded / e.total });
    xhr.onprogress = readLines;
    xhr.onload = () => {
      readLines();
      if (!result && xhr.responseText.trim().startsWith("{")) {
        try {
          const body = JSON.parse(xhr.responseText) as { message?: string };
          result = { ok: false, message: body.message ?? `HTTP ${xhr.status}` };
        } catch {
          // fall through
        }
      }
      resolve(result ?? { ok: false, message: `the server answered HTTP ${xhr.status} without a readable result` });
    };
    xhr.onerror = () => resolve({ ok: false, message: "the connection to the server failed during the upload" });
    xhr.send(file);
  });
}
