import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { kickEvalRunner } from "@/server/evaluation/eval-runner";
import { getRunView } from "@/server/evaluation/run-view";

export const dynamic = "force-dynamic";

/** `GET /api/evaluations/[id]`: the run with its progress, aggregates so far and compaction frequency (polled while it runs). Viewer role. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const db = getDb();
  kickEvalRunner(db);
  const view = await getRunView(db, (await params).id);
  if (!view) return Response.json({ ok: false, code: "not_found", message: "no such evaluation run" }, { status: 404 });
  return Response.json({ ok: true, data: view });
}
