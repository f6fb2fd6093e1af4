import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SessionHeader } from "@/components/trace/viewer/session-header";
import { SessionViewer } from "@/components/trace/viewer/session-viewer";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { getSessionOverview } from "@/server/trace/session/get-session-overview";

export const dynamic = "force-dynamic";

interface SessionPageProps {
  params: Promise<{ id: string }>;
}

export async function generateMetadata({ params }: SessionPageProps): Promise<Metadata> {
  await requireUser("viewer");
  const { id } = await params;
  const session = await getDb().traceSession.findUnique({ where: { id }, select: { title: true } });
  return { title: session?.title ?? "Session" };
}

/**
 * One imported session: header facts plus the virtualized timeline. The page sends only the
 * overview (roles, token counts, objects, compactions); message bodies are fetched by window.
 */
export default async function SessionPage({ params }: SessionPageProps) {
  const user = await requireUser("viewer");
  const { id } = await params;
  const db = getDb();
  const overview = await getSessionOverview(db, id);
  if (!overview) notFound();
  // Admins may delete the session; the confirmation says whether its uploaded file goes with it.
  const deletion = hasRole(user.role, "admin")
    ? { sessionsInUpload: await db.traceSession.count({ where: { upload: { sessions: { some: { id } } } } }) }
    : undefined;
  return <SessionViewer key={overview.id} overview={overview} header={<SessionHeader overview={overview} {...(deletion ? { deletion } : {})} />} />;
}
