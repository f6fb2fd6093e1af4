import Link from "next/link";
import { plural } from "@/lib/util/plural";

/**
 * The replay page of a session without a single safe cut (an empty Aider "chat started" block, a
 * one-message session): say why there is nothing to replay instead of showing an empty slider.
 */
export function NothingToReplay({ sessionId, messages }: { sessionId: string; messages: number }) {
  return (
    <section className="card card-body" data-testid="nothing-to-replay">
      <h1>Nothing to replay</h1>
      <p>
        {messages === 0 ? "This session has no messages" : `This session has ${plural(messages, "message")} but no safe cut`}: a replay needs a prefix and an
        assistant step after it, with every earlier tool call answered.
      </p>
      <p>
        <Link href={`/sessions/${encodeURIComponent(sessionId)}`}>Back to the session</Link>
      </p>
    </section>
  );
}
