import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CompactionStudio } from "@/components/compaction/compaction-studio";
import { NothingToReplay } from "@/components/compaction/nothing-to-replay";
import { parseCompactQuery } from "@/components/compaction/url-state";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getCompactionSetup } from "@/server/compaction/compaction-setup";
import { listPolicyInfo } from "@/server/compaction/policy-catalog";

export const dynamic = "force-dynamic";

interface CompactPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: CompactPageProps): Promise<Metadata> {
  await requireUser("viewer");
  const { id } = await params;
  const session = await getDb().traceSession.findUnique({ where: { id }, select: { title: true } });
  return { title: session ? `Replay · ${session.title}` : "Replay" };
}

/**
 * Replays compaction policies on a session at a cut: `?policy=&cut=&window=&compare=` (plus
 * `p.<param>=` overrides) reproduce a shared result. The page sends the safe cuts and the policy
 * list; runs and message bodies are fetched by the client.
 */
export default async function CompactPage({ params, searchParams }: CompactPageProps) {
  await requireUser("viewer");
  const { id } = await params;
  const setup = await getCompactionSetup(getDb(), id);
  if (!setup) notFound();
  if (setup.safeCuts.length === 0) return <NothingToReplay sessionId={setup.sessionId} messages={setup.messageCount} />;
  const policies = listPolicyInfo();
  const initial = parseCompactQuery(await searchParams, policies);
  return <CompactionStudio key={setup.sessionId} setup={setup} policies={policies} initial={initial} />;
}
