import { requireApiUser } from "@/server/auth/require";
import { refuseCrossOrigin } from "@/server/security/same-origin";
import { getDb } from "@/server/db/client";
import { publicMessage } from "@/server/errors/public-error";
import { receiveUsageLog } from "@/server/online/receive-usage-log";
import { UploadUsageQuerySchema } from "@/server/online/upload-usage-query";
import { getBlobStore } from "@/server/storage/configured-blob-store";
import { describeBytes, maxUploadBytes } from "@/server/trace/import/upload-limits";
import { EmptyUploadError } from "@/server/trace/import/receive-upload";
import { UploadTooLargeError } from "@/server/trace/import/write-body-to-file";

export const dynamic = "force-dynamic";

/**
 * `PUT /api/online/uploads?name=…&mapping=…` with the usage log's raw bytes as the body (reviewer
 * or admin). Answers NDJSON as the import runs: `{"type":"progress",bytes,totalBytes,rows,errors}`
 * lines, then one `{"type":"result",outcome}` or `{"type":"error",code,message}` line.
 */
export async function PUT(request: Request): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  const user = await requireApiUser("reviewer");
  if (user instanceof Response) return user;
  const query = UploadUsageQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success)
    return Response.json({ ok: false, code: "invalid_request", message: query.error.issues.map((i) => i.message).join("; ") }, { status: 400 });
  const maxBytes = maxUploadBytes();
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes)
    return Response.json({ ok: false, code: "too_large", message: `the file is larger than the upload limit of ${describeBytes(maxBytes)}` }, { status: 413 });

  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: object) => controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
      try {
        const outcome = await receiveUsageLog({
          db: getDb(),
          store: getBlobStore(),
          body: request.body,
          fileName: query.data.name,
          format: query.data.format,
          mapping: query.data.mapping,
          userId: user.id,
          maxBytes,
          onProgress: (p) => send({ type: "progress", ...p }),
        });
        send({ type: "result", outcome });
      } catch (error) {
        if (error instanceof UploadTooLargeError)
          send({ type: "error", code: "too_large", message: `the file is larger than the upload limit of ${describeBytes(maxBytes)}` });
        else if (error instanceof EmptyUploadError) send({ type: "error", code: "empty_file", message: "the file is empty: there is nothing to import" });
        else {
          send({
            type: "error",
            code: "internal",
            message: `the import failed: ${publicMessage(error, `usage log upload of ${JSON.stringify(query.data.name)}`)}`,
          });
        }
      } finally {
        controller.close();
      }
    },
  });
  return new Response(stream, { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" } });
}
