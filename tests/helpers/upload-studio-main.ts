import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { getDb } from "../../server/db/client";
import { getJobQueue } from "../../server/jobs/process-queue";
import { getBlobStore } from "../../server/storage/configured-blob-store";
import { asyncImportBytes } from "../../server/trace/import/async-import-threshold";
import { EmptyUploadError, receiveUpload } from "../../server/trace/import/receive-upload";
import { UploadQuerySchema } from "../../server/trace/import/upload-query";
import { outcomeResponse } from "../../server/trace/import/upload-response";

/**
 * A studio process for fault tests (issue #7): answers `PUT /api/uploads?name=…` on loopback with
 * what app/api/uploads/route.ts does after authentication — the same query schema, the same
 * receiveUpload call on this process's configured database, blob store, job queue and async
 * threshold, the same outcome mapping — so a test can SIGKILL it in the middle of an in-request
 * import. Next's request plumbing and the session check are left out (next-auth needs a Next
 * request scope); the uploader is TRACEFOLD_TEST_UPLOADER_ID. Prints `listening <port>` when ready.
 */
const uploaderId = process.env.TRACEFOLD_TEST_UPLOADER_ID;
if (!uploaderId) throw new Error("TRACEFOLD_TEST_UPLOADER_ID: required (the id of the user who uploads)");

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const send = (status: number, body: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  if (request.method !== "PUT" || url.pathname !== "/api/uploads") return void send(404, { ok: false, code: "not_found" });
  const query = UploadQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) return void send(400, { ok: false, code: "invalid_request", message: query.error.message });
  try {
    const outcome = await receiveUpload({
      db: getDb(),
      store: getBlobStore(),
      body: Readable.toWeb(request) as ReadableStream<Uint8Array>,
      fileName: query.data.name,
      format: query.data.format,
      userId: uploaderId!,
      maxBytes: 1 << 30,
      queue: getJobQueue(),
      asyncImportBytes: asyncImportBytes(),
    });
    const { status, body } = outcomeResponse(outcome);
    send(status, body);
  } catch (error) {
    if (error instanceof EmptyUploadError) return void send(422, { ok: false, code: "empty_file", message: error.message });
    console.error("upload failed", error);
    send(500, { ok: false, code: "internal", message: String(error) });
  }
}

const server = createServer((request, response) => void answer(request, response));
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : "?"}`);
});
