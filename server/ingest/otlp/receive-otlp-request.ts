import { describeRequestProblems, OtlpTraceRequestSchema } from "@/lib/ingest/otlp/otlp-request";
import { receivedSpans } from "@/lib/ingest/otlp/received-span";
import type { ApiPrincipal } from "../../auth/key-principal";
import { getDb } from "../../db/client";
import { databaseUrl, engineOf } from "../../db/engine";
import { publicMessage } from "../../errors/public-error";
import { getBlobStore } from "../../storage/configured-blob-store";
import { maxUploadBytes, tooLargeMessage } from "../../trace/import/upload-limits";
import { decodeOtlpProtobuf, MalformedProtobufError } from "./decode-otlp-protobuf";
import { otlpAnswer, otlpRefusal, type OtlpEncoding } from "./otlp-response";
import { otlpRebuilds } from "./otlp-rebuilds";
import { otlpSyncRebuildSpans } from "./otlp-rebuild-settings";
import { OtlpBodyError, readOtlpBody } from "./read-otlp-body";
import { redactSpans } from "./redact-spans";
import { storeOtlpSpans } from "./store-otlp-spans";

/**
 * One OTLP/HTTP trace export (`POST /v1/traces`), after the route has authenticated the caller:
 * `application/json` or `application/x-protobuf`, optionally gzip. Validated whole before anything
 * is written (a malformed body is a 400 naming where, and nothing is stored); spans without any
 * GenAI attribute are rejected one by one under OTLP partial success; the rest are redacted,
 * stored idempotently and their sessions rebuilt in one transaction (store-otlp-spans.ts) — a session
 * past TRACEFOLD_OTLP_SYNC_SPANS spans is marked dirty there instead and rebuilt right after the
 * answer, coalesced with the other requests' (otlp-rebuilds.ts). The answer is in the request's
 * encoding: empty success, or `partialSuccess {rejectedSpans, errorMessage}`.
 */
export async function receiveOtlpRequest(request: Request, user: ApiPrincipal): Promise<Response> {
  const encoding = encodingOf(request.headers.get("content-type"));
  if (!encoding) return otlpRefusal(415, "unsupported_media_type", "send Content-Type application/json or application/x-protobuf (OTLP/HTTP)");
  const maxBytes = maxUploadBytes();
  let parsed: unknown;
  try {
    const body = await readOtlpBody(request, maxBytes, tooLargeMessage(maxBytes));
    parsed = encoding === "protobuf" ? decodeOtlpProtobuf(body) : JSON.parse(Buffer.from(body).toString("utf8"));
  } catch (error) {
    if (error instanceof OtlpBodyError) return otlpRefusal(error.status, error.code, error.message);
    if (error instanceof MalformedProtobufError) return otlpRefusal(400, "malformed_protobuf", error.message);
    if (error instanceof SyntaxError) return otlpRefusal(400, "malformed_json", `the body is not JSON: ${error.message}`);
    throw error;
  }
  const request_ = OtlpTraceRequestSchema.safeParse(parsed);
  if (!request_.success) {
    const problems = describeRequestProblems(request_.error);
    return otlpRefusal(
      400,
      "invalid_request",
      `not an OTLP trace export request: ${problems.slice(0, 20).join("; ")}${problems.length > 20 ? ` (and ${problems.length - 20} more)` : ""}`,
    );
  }
  const spans = receivedSpans(request_.data);
  const genAi = spans.filter((s) => s.hasGenAi);
  const rejected = spans.length - genAi.length;
  try {
    const db = getDb();
    const { deferred } = await storeOtlpSpans({
      db,
      engine: engineOf(databaseUrl()),
      store: getBlobStore(),
      spans: await redactSpans(db, genAi),
      userId: user.apiKey ? (user.apiKey.createdById ?? undefined) : user.id,
      syncRebuildSpans: otlpSyncRebuildSpans(),
    });
    otlpRebuilds().schedule(deferred);
  } catch (error) {
    return otlpRefusal(500, "internal", `the spans were not stored: ${publicMessage(error, "OTLP export")}`);
  }
  const message = rejected ? `${rejected} of ${spans.length} spans carry no GenAI attribute (gen_ai.*, llm.*, OpenInference) and were not stored` : "";
  return otlpAnswer(encoding, rejected, message);
}

function encodingOf(contentType: string | null): OtlpEncoding | undefined {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") return "json";
  if (type === "application/x-protobuf" || type === "application/protobuf") return "protobuf";
  return undefined;
}
