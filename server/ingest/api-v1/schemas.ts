import { z } from "zod";
import { FORMAT_IDS } from "../../../lib/trace/model";

/**
 * The public REST API's contract (`/api/v1/*`, issue 15): query schemas the routes validate with
 * and response schemas the OpenAPI document (`GET /api/v1/openapi.json`) is generated from, so the
 * document cannot drift from what the routes accept.
 */

export const ApiErrorSchema = z
  .object({ ok: z.literal(false), code: z.string(), message: z.string(), fieldErrors: z.record(z.string(), z.array(z.string())).optional() })
  .meta({ id: "Error", description: "Every refusal: a machine code and a message a person can act on." });

export const SESSION_PAGE_MAX = 500;

export const SessionListQuerySchema = z.object({
  q: z.string().trim().max(200, "q is at most 200 characters").optional().describe("Case-insensitive text in the title or the external id"),
  format: z.enum(FORMAT_IDS, { message: `format must be one of ${FORMAT_IDS.join(", ")}` }).optional(),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be an integer")
    .min(1, "limit must be at least 1")
    .max(SESSION_PAGE_MAX, `limit must be at most ${SESSION_PAGE_MAX}`)
    .default(100),
  cursor: z.string().max(400, "cursor is not one this API gave").optional().describe("nextCursor of the previous page"),
});
export type SessionListQuery = z.infer<typeof SessionListQuerySchema>;

export const SessionSummarySchema = z
  .object({
    id: z.string().describe("Tracefold's id of the session"),
    externalId: z.string().describe("The trace's own session / conversation id"),
    parentExternalId: z.string().nullable().describe("The parent session's external id, for a subagent"),
    format: z.enum(FORMAT_IDS),
    title: z.string(),
    model: z.string().nullable(),
    messages: z.number().int(),
    toolCalls: z.number().int(),
    toolResults: z.number().int(),
    tokens: z.number().int().describe("Estimated tokens of the whole session (its tokenizer)"),
    tokenizer: z.string(),
    nativeCompactions: z.number().int(),
    startedAt: z.string().nullable(),
    uploadId: z.string(),
    fileName: z.string(),
    uploadedAt: z.string().describe("ISO-8601"),
  })
  .meta({ id: "Session" });
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const SessionPageSchema = z
  .object({
    ok: z.literal(true),
    data: z.array(SessionSummarySchema),
    nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last"),
  })
  .meta({ id: "SessionPage" });

/** `jsonl`: Tracefold JSONL, which `tracefold import` and uploads read back; `otlp`: OTLP JSON in the GenAI conventions. */
export const SessionExportQuerySchema = z.object({
  as: z.enum(["jsonl", "otlp"], { message: "as must be jsonl or otlp" }).default("jsonl"),
});

/** Sessions one set export may hold: the file streams, but a larger set is a backup's job (`tracefold backup`). */
export const SESSION_EXPORT_MAX = 5_000;

/**
 * `GET|POST /api/v1/sessions/export`: a set of sessions as one file. Either `ids` (comma-separated:
 * exactly the rows a studio table shows) or the list's filters `q` and `format` (none: every session).
 */
export const SessionSetExportQuerySchema = z
  .object({
    as: z.enum(["jsonl", "otlp"], { message: "as must be jsonl or otlp" }).default("jsonl"),
    ids: z
      .string()
      .trim()
      .transform((text) => [
        ...new Set(
          text
            .split(",")
            .map((id) => id.trim())
            .filter((id) => id !== ""),
        ),
      ])
      .pipe(
        z
          .array(z.string().max(64, "each id is at most 64 characters"))
          .min(1, "ids names at least one session")
          .max(SESSION_EXPORT_MAX, `ids names at most ${SESSION_EXPORT_MAX} sessions`),
      )
      .optional()
      .describe("Comma-separated session ids; when given, q and format must not be"),
    q: SessionListQuerySchema.shape.q,
    format: SessionListQuerySchema.shape.format,
  })
  .refine((query) => !(query.ids && (query.q !== undefined || query.format !== undefined)), {
    message: "give ids or the filters q and format, not both",
    path: ["ids"],
  });
export type SessionSetExportQuery = z.infer<typeof SessionSetExportQuerySchema>;

export const StartRunBodySchema = z
  .object({
    name: z.string().max(200, "name is at most 200 characters").optional(),
    settings: z.unknown().describe("Evaluation settings, as the studio's run form sends them (README, What works today: Evaluation runs)"),
  })
  .meta({ id: "StartRun" });

export const RunStartedSchema = z
  .object({ ok: z.literal(true), data: z.object({ runId: z.string(), total: z.number().int().describe("Units the run will judge") }) })
  .meta({ id: "RunStarted" });
