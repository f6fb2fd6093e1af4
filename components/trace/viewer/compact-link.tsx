import Link from "next/link";

/** The way from a session into the compaction replay page ("Replay policies at a cut →"). */
export function CompactLink({ sessionId, className }: { sessionId: string; className?: string }) {
  return (
    <Link href={`/sessions/${encodeURIComponent(sessionId)}/compact`} className={className ?? "btn btn-sm"} data-testid="compact-link">
      Replay policies at a cut →
    </Link>
  );
}
