import { z } from "zod";
import { after } from "next/server";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { warmQueueJudge } from "@/server/review/calibration-agreement";
import { importGoldQueue } from "@/server/review/import-gold";
import { refuseCrossOrigin } from "@/server/security/same-origin";

/** A gold file is a few MB (the repo's gold set: 1.6 MB); server actions stop at 1 MB, so this is a route. */
const MAX_BODY_BYTES = 50 * 1024 * 1024;
const tooLarge = () => Response.json({ ok: false, code: "too_large", message: `the gold file is over ${MAX_BODY_BYTES / 1024 / 1024} MB` }, { status: 413 });
const OptionsSchema = z.object({
  name: z.string().trim().max(200, "name is at most 200 characters").optional(),
  overlap: z.coerce.number().int("overlap must be a whole number").min(1, "overlap must be at least 1").max(20, "overlap must be at most 20").default(2),
});

/**
 * POST (the gold file's text as the body; `?name=`, `?overlap=`) — reviewers and admins: a gold
 * file becomes a calibration queue (server/review/import-gold.ts). All or nothing: 422 with every
 * problem located by line, field and what was expected; the same file again answers with its
 * queue (`duplicate: true`). The judge's side is computed right after the response.
 */
export async function POST(request: Request): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  const user = await requireApiUser("reviewer");
  if (user instanceof Response) return user;
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) return tooLarge();
  const options = OptionsSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!options.success) return Response.json({ ok: false, code: "invalid_input", message: options.error.issues.map((i) => i.message).join("; ") }, { status: 400 });
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return tooLarge();
  if (text.trim() === "") return Response.json({ ok: false, code: "invalid_input", message: "the gold file is empty" }, { status: 400 });
  const db = getDb();
  const { name, overlap } = options.data;
  const outcome = await importGoldQueue(db, text, { ...(name ? { name } : {}), overlap, createdById: user.id });
  if (!outcome.ok) return Response.json(outcome, { status: 422 });
  after(() => warmQueueJudge(db, outcome.queueId).catch((error: unknown) => console.error(`review: judging calibration queue ${outcome.queueId}: ${String(error)}`)));
  const { ok: _ok, ...data } = outcome;
  return Response.json({ ok: true, data });
}
