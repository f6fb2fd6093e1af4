import { apiError } from "@/server/api-v1/respond";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { kickEvalRunner } from "@/server/evals/eval-runner";
import { getRunView } from "@/server/evals/run-view";

export const dynamic = "force-dynamic";

/** `GET /api/v1/runs/{id}`: the run's status, progress and results so far (the run page's data). A `read` key or a viewer. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const db = getDb();
  kickEvalRunner(db);
  const view = await getRunView(db, (await params).id);
  if (!view) return apiError(404, "not_found", "no such evaluation run");
  return Response.json({ ok: true, data: view });
}
