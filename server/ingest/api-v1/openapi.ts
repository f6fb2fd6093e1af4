import { z } from "zod";
import { FORMAT_IDS } from "../../../lib/trace/model";
import { ApiErrorSchema, RunStartedSchema, SESSION_EXPORT_MAX, SESSION_PAGE_MAX, SessionPageSchema, SessionSummarySchema, StartRunBodySchema } from "./schemas";

/**
 * The OpenAPI 3.1 document of `/api/v1` (served at `GET /api/v1/openapi.json`). Component schemas
 * are generated from the zod schemas the routes validate and answer with (zod's own
 * `toJSONSchema`), so the document and the routes share one definition.
 */
export function openApiDocument(): Record<string, unknown> {
  const registry = z.globalRegistry;
  const components = z.toJSONSchema(registry, { target: "draft-2020-12", unrepresentable: "any", uri: (id) => `#/components/schemas/${id}` }).schemas as Record<
    string,
    Record<string, unknown>
  >;
  const schemas: Record<string, unknown> = {};
  for (const schema of [ApiErrorSchema, SessionSummarySchema, SessionPageSchema, StartRunBodySchema, RunStartedSchema]) {
    const id = registry.get(schema)?.id as string;
    const { $schema: _schema, $id: _id, ...body } = components[id] ?? {};
    schemas[id] = body;
  }
  const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
  const json = (schema: unknown, description: string) => ({ description, content: { "application/json": { schema } } });
  const errors = {
    "400": json(ref("Error"), "Invalid request: `fieldErrors` names each bad field"),
    "401": json(ref("Error"), "No session, or an unknown, revoked or malformed API key"),
    "403": json(ref("Error"), "The role or the key's scope does not allow this route"),
    "429": json(ref("Error"), "The key's requests per minute are used up; see Retry-After"),
  };
  const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
  return {
    openapi: "3.1.0",
    info: {
      title: "Tracefold API",
      version: "1",
      description:
        "Traces in, sessions and evaluation runs out. Authenticate with `Authorization: Bearer tfk_…` (a project API key an admin creates on Admin → API keys or with `tracefold keys create`) or a studio session cookie.",
    },
    servers: [{ url: "/" }],
    components: { schemas, securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "A project API key (`ingest` or `read` scope)" } } },
    security: [{ apiKey: [] }],
    paths: {
      "/api/v1/uploads": {
        post: {
          summary: "Upload one trace file (ingest key)",
          description:
            "The raw bytes of one file. Secrets are redacted before anything is stored. 201 imported, 200 duplicate, 202 queued for a worker (poll GET /api/uploads/imports/{importId}), 413 too large (also a gzip or Inspect .eval zip that expands past the limits: archive_refused), 415 a zip that is not an Inspect .eval log, 422 not a valid trace (located issues). A gzip'd JSON/JSONL trace and an Inspect .eval are expanded before import.",
          parameters: [
            { name: "name", in: "query", required: true, schema: { type: "string" }, description: "The file's name (its extension helps detect the format)" },
            { name: "format", in: "query", required: false, schema: { type: "string" }, description: "A format id, when detection should not guess" },
          ],
          requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
          responses: {
            "200": { description: "Already uploaded (same bytes)" },
            "201": { description: "Imported" },
            "202": { description: "Queued for a job worker" },
            ...errors,
            "413": json(ref("Error"), "Too large, or expands past the zip-bomb limits"),
            "415": json(ref("Error"), "A zip that is not an Inspect .eval log, or an unreadable archive"),
            "422": json(ref("Error"), "Not a valid trace"),
          },
        },
      },
      "/api/v1/otlp/v1/traces": {
        post: {
          summary: "OTLP/HTTP trace export (ingest key); the same endpoint is served at /v1/traces",
          description:
            "An OTLP ExportTraceServiceRequest, JSON or protobuf, optionally gzip (Content-Encoding). Spans are redacted, stored once per trace and span id, grouped into sessions by gen_ai.conversation.id, session.id or trace id, and those sessions rebuilt. Spans without GenAI attributes are rejected under partial success. See the README, OTLP ingestion.",
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { type: "object", properties: { resourceSpans: { type: "array" } } } },
              "application/x-protobuf": { schema: { type: "string", format: "binary" } },
            },
          },
          responses: {
            "200": {
              description: 'Stored: `{}` (or an empty protobuf message), or `{"partialSuccess":{"rejectedSpans","errorMessage"}}`',
              content: { "application/json": { schema: { type: "object" } }, "application/x-protobuf": { schema: { type: "string", format: "binary" } } },
            },
            ...errors,
            "400": json(ref("Error"), "Malformed protobuf, JSON or OTLP request (the message names the field); nothing stored"),
            "413": json(ref("Error"), "Larger than TRACEFOLD_MAX_UPLOAD_MB, before or after gunzip"),
            "415": json(ref("Error"), "Not application/json or application/x-protobuf, or an encoding other than gzip"),
          },
        },
      },
      "/api/v1/sessions": {
        get: {
          summary: "List sessions, newest first (read key)",
          parameters: [
            { name: "q", in: "query", schema: { type: "string", maxLength: 200 }, description: "Case-insensitive text in the title or the external id" },
            { name: "format", in: "query", schema: { type: "string" } },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: SESSION_PAGE_MAX, default: 100 } },
            { name: "cursor", in: "query", schema: { type: "string" }, description: "nextCursor of the previous page" },
          ],
          responses: { "200": json(ref("SessionPage"), "A page of sessions"), ...errors },
        },
      },
      "/api/v1/sessions/{id}": {
        get: {
          summary: "One session (read key)",
          parameters: [id],
          responses: {
            "200": json({ type: "object", properties: { ok: { const: true }, data: ref("Session") } }, "The session"),
            ...errors,
            "404": json(ref("Error"), "No such session"),
          },
        },
      },
      "/api/v1/sessions/export": {
        get: {
          summary: "Export a set of sessions as one file (read key)",
          description: `Either \`ids\` (comma-separated; every one must exist) or the list's filters \`q\` and \`format\` (none: every session), newest first, at most ${SESSION_EXPORT_MAX} sessions. \`as=jsonl\`: Tracefold JSONL, each session's lines in turn. \`as=otlp\`: JSON Lines, one OTLP ExportTraceServiceRequest per session (the OpenTelemetry file exporter's shape), read back by Tracefold's OTel importer as one session per trace. The response streams; \`x-tracefold-sessions\` gives the count. POST takes the same fields as a form, for more ids than a URL holds.`,
          parameters: [
            { name: "as", in: "query", schema: { type: "string", enum: ["jsonl", "otlp"], default: "jsonl" } },
            { name: "ids", in: "query", schema: { type: "string" }, description: "Comma-separated session ids" },
            { name: "q", in: "query", schema: { type: "string", maxLength: 200 } },
            { name: "format", in: "query", schema: { type: "string", enum: [...FORMAT_IDS] } },
          ],
          responses: {
            "200": { description: "The file, as an attachment", content: { "application/x-ndjson": { schema: { type: "string" } } } },
            ...errors,
            "404": json(ref("Error"), "An id names no session"),
          },
        },
        post: {
          summary: "Export a set of sessions as one file, the ids in a form (read key)",
          description:
            "The same as GET with `ids` and `as` sent as a form (application/x-www-form-urlencoded or multipart/form-data), for more ids than a URL holds: the traces table's export. Refused from another origin like every POST with a cookie.",
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["ids"],
                  properties: { ids: { type: "string" }, as: { type: "string", enum: ["jsonl", "otlp"], default: "jsonl" } },
                },
              },
            },
          },
          responses: {
            "200": { description: "The file, as an attachment", content: { "application/x-ndjson": { schema: { type: "string" } } } },
            ...errors,
            "404": json(ref("Error"), "An id names no session"),
          },
        },
      },
      "/api/v1/sessions/{id}/export": {
        get: {
          summary: "Export a session as Tracefold JSONL or OTLP JSON (read key)",
          description:
            "`as=jsonl`: Tracefold JSONL, which uploads and `tracefold import` read back into the same messages. `as=otlp`: an OTLP ExportTraceServiceRequest in the OpenTelemetry GenAI conventions (an invoke_agent root span, a chat span per assistant message with gen_ai.input.messages / gen_ai.output.messages, an execute_tool span per tool result; trace and span ids derived from the session id), which any OTLP backend and Tracefold's own importer read.",
          parameters: [id, { name: "as", in: "query", schema: { type: "string", enum: ["jsonl", "otlp"], default: "jsonl" } }],
          responses: {
            "200": {
              description: "The file, as an attachment",
              content: {
                "application/x-ndjson": { schema: { type: "string", description: "Tracefold JSONL (docs/tracefold-jsonl.md)" } },
                "application/json": { schema: { type: "object", description: "OTLP JSON", properties: { resourceSpans: { type: "array" } } } },
              },
            },
            ...errors,
            "404": json(ref("Error"), "No such session"),
          },
        },
      },
      "/api/v1/sessions/{id}/span-annotations": {
        get: {
          summary: "The session's review labels as Phoenix / OpenInference span annotations (read key)",
          description:
            "The current version of every review label on the session, as the body Phoenix's POST /v1/span_annotations takes. Each annotation's span_id is a span of `export?as=otlp` (the model call right after the label's cut); `identifier` is the label thread id, so sending a newer export updates rather than duplicates.",
          parameters: [id],
          responses: {
            "200": json(
              {
                type: "object",
                required: ["data"],
                properties: {
                  data: {
                    type: "array",
                    items: {
                      type: "object",
                      required: ["span_id", "name", "annotator_kind", "result", "metadata", "identifier"],
                      properties: {
                        span_id: { type: "string", pattern: "^[0-9a-f]{16}$" },
                        name: { type: "string", enum: ["dependency", "cut_review", "failure_category", "ab", "view_verdict"] },
                        annotator_kind: { const: "HUMAN" },
                        result: { type: "object", properties: { label: { type: "string" }, score: { type: "number" }, explanation: { type: "string" } } },
                        metadata: { type: "object", description: "The label's other fields (labelId, version, reviewer, createdAt, cut, queue…)" },
                        identifier: { type: "string" },
                      },
                    },
                  },
                },
              },
              "Span annotations",
            ),
            ...errors,
            "404": json(ref("Error"), "No such session"),
          },
        },
      },
      "/api/v1/runs": {
        post: {
          summary: "Start an evaluation run (ingest key)",
          requestBody: { required: true, content: { "application/json": { schema: ref("StartRun") } } },
          responses: {
            "201": json(ref("RunStarted"), "The run is queued"),
            ...errors,
            "409": json(ref("Error"), "The LLM judge was asked for and no endpoint is configured"),
          },
        },
      },
      "/api/v1/runs/{id}": {
        get: {
          summary: "A run's status, progress and results so far (read key)",
          parameters: [id],
          responses: { "200": { description: "The run (the studio's run page data)" }, ...errors, "404": json(ref("Error"), "No such run") },
        },
      },
      "/api/v1/openapi.json": {
        get: { summary: "This document (read key or a session)", responses: { "200": { description: "OpenAPI 3.1" }, "401": errors["401"] } },
      },
    },
  };
}
