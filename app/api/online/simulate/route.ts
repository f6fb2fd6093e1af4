import { requireApiUser } from "@/server/auth/require";
import { refuseCrossOrigin } from "@/server/security/same-origin";
import { getDb } from "@/server/db/client";
import { publicMessage } from "@/server/errors/public-error";
import { SimulateRequestSchema } from "@/server/online/simulate-request";
import { selectSimSessions, simulateStoredSessions, SimulationRefused } from "@/server/online/simulate-stored";

export const dynamic = "force-dynamic";

/**
 * `POST /api/online/simulate` (reviewer or admin) with `{selection, policy, trigger?, window?, prices}`:
 * replays the stored sessions under the policy and answers NDJSON — `{"type":"progress",done,total}`
 * after each session, then `{"type":"result",report}` or `{"type":"error",code,message}`.
 *
 * Why a streamed response and not a persisted job: the result is a pure function of stored
 * sessions and these settings (no LLM call, no randomness), a few seconds per hundred sessions, and
 * nothing is written — so a dropped connection loses nothing that a re-run would not rebuild. The
 * work yields the event loop between sessions (other requests are served meanwhile) and stops when
 * the client goes away (`request.signal`), so an abandoned run does not keep the CPU busy.
 */
export async function POST(request: Request): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  const user = await requireApiUser("reviewer");
  if (user instanceof Response) return user;
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ ok: false, code: "invalid_request", message: "expected a JSON body" }, { status: 400 });
  }
  const parsed = SimulateRequestSchema.safeParse(body);
  if (!parsed.success)
    return Response.json({ ok: false, code: "invalid_request", message: parsed.error.issues.map((i) => i.message).join("; ") }, { status: 400 });
  const input = parsed.data;
  const db = getDb();
  const ids = await selectSimSessions(db, input.selection);

  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: object) => controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
      try {
        send({ type: "progress", done: 0, total: ids.length });
        const report = await simulateStoredSessions(db, ids, {
          policyId: input.policy,
          prices: input.prices,
          signal: request.signal,
          onProgress: (done, total) => send({ type: "progress", done, total }),
          ...(input.trigger !== undefined ? { trigger: input.trigger } : {}),
          ...(input.window !== undefined ? { window: input.window } : {}),
        });
        send({ type: "result", report });
      } catch (error) {
        if (request.signal.aborted) return;
        if (error instanceof SimulationRefused) send({ type: "error", code: "refused", message: error.message });
        else {
          send({ type: "error", code: "internal", message: `the simulation failed: ${publicMessage(error, `simulation of ${input.policy}`)}` });
        }
      } finally {
        try {
          controller.close();
        } catch {
          // The client already went away.
        }
      }
    },
  });
  return new Response(stream, { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" } });
}
