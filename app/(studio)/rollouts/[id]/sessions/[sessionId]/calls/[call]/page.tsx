import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { RolloutCallViewer } from "@/components/rollout/rollout-call-view";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getRolloutCall } from "@/server/rollout/get-rollout-call";

export const dynamic = "force-dynamic";

interface RolloutCallPageProps {
  params: Promise<{ id: string; sessionId: string; call: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** The URL's call (1-based, as the run page counts calls) and policy. */
const CallQuerySchema = z.object({
  call: z.string().regex(/^[1-9]\d{0,6}$/, "the call is a whole number from 1 (as the run page counts calls)"),
  policy: z.string({ error: "name the policy: ?policy=<id>" }).min(1, "name the policy: ?policy=<id>").max(100, "the policy id is at most 100 characters"),
});

export async function generateMetadata({ params }: RolloutCallPageProps): Promise<Metadata> {
  await requireUser("viewer");
  const { id, call } = await params;
  const run = await getDb().rolloutRun.findUnique({ where: { id }, select: { name: true } });
  return { title: run ? `Rollout · ${run.name} · call ${call}` : "Rollout call" };
}

/**
 * The view the agent had at one call of a policy's rollout of a session: the prompt the walk gave
 * the model there (committed head, messages since, restored payloads), the values lost there and
 * the step that needed them. The session is walked again with the run's stored settings (one
 * session, one policy: the same engine the run used), so the page shows what the run measured.
 */
export default async function RolloutCallPage({ params, searchParams }: RolloutCallPageProps) {
  await requireUser("viewer");
  const { id, sessionId, call } = await params;
  const policy = (await searchParams).policy;
  const query = CallQuerySchema.safeParse({ call, policy: Array.isArray(policy) ? policy[0] : policy });
  const db = getDb();
  if (!query.success) {
    const run = await db.rolloutRun.findUnique({ where: { id }, select: { id: true, name: true } });
    if (!run) notFound();
    return <CallProblem run={run} message={query.error.issues.map((i) => i.message).join("; ")} />;
  }
  const outcome = await getRolloutCall(db, { runId: id, sessionId, policy: query.data.policy, call: Number(query.data.call) - 1 });
  if (!outcome.ok) {
    if (!outcome.run) notFound();
    return <CallProblem run={outcome.run} message={outcome.message} />;
  }
  const view = outcome.data;
  return (
    <>
      <div className="page-header">
        <h1>
          {view.title} · call {(view.call + 1).toLocaleString("en-US")}
        </h1>
        <p>
          <Link href="/rollouts">Rollouts</Link> · <Link href={`/rollouts/${encodeURIComponent(view.run.id)}`}>{view.run.name}</Link> · the prompt{" "}
          <span className="mono">{view.policy}</span>&apos;s rollout gave the model at this call
        </p>
      </div>
      <RolloutCallViewer view={view} />
    </>
  );
}

function CallProblem({ run, message }: { run: { id: string; name: string }; message: string }) {
  return (
    <>
      <div className="page-header">
        <h1>{run.name}</h1>
        <p>
          <Link href="/rollouts">Rollouts</Link> · <Link href={`/rollouts/${encodeURIComponent(run.id)}`}>{run.name}</Link>
        </p>
      </div>
      <p className="alert alert-error" role="alert" data-testid="call-problem">
        {message}
      </p>
    </>
  );
}
