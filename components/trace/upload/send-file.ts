import type { UploadResponse } from "@/server/trace/import/upload-response";

/**
 * Sends one file with XMLHttpRequest (not fetch) because only XHR reports upload progress. The raw
 * bytes are the body, so the server can stream them to disk without multipart parsing.
 * Resolves with the server's JSON answer, or a synthesised error body when there is none.
 */
export function sendFile(file: File, options: { format?: string; onProgress: (fraction: number) => void }): Promise<UploadResponse> {
  return new Promise((resolve) => {
    const params = new URLSearchParams({ name: file.name });
    if (options.format) params.set("format", options.format);
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", `/api/uploads?${params.toString()}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = () => options.onProgress(1);
    xhr.onload = () => resolve(parseBody(xhr.status, xhr.responseText));
    xhr.onerror = () => resolve({ ok: false, code: "internal", message: "the connection to the server failed during the upload" });
    xhr.onabort = () => resolve({ ok: false, code: "internal", message: "the upload was cancelled" });
    xhr.send(file);
  });
}

function parseBody(status: number, text: string): UploadResponse {
  try {
    const body = JSON.parse(text) as UploadResponse;
    if (body && typeof body === "object" && "ok" in body) return body;
  } catch {
    // fall through: a proxy or crash answered with something that is not our JSON
  }
  return { ok: false, code: "internal", message: `the server answered HTTP ${status} without a readable result` };
}
