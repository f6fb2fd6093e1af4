"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { usageFromTracesAction } from "@/app/_actions/online";
import { nounFor, plural } from "@/lib/util/plural";

/**
 * *Use usage from uploaded traces*: turns the provider usage recorded in stored traces into a usage
 * log like an uploaded one (so every chart and export works on it). Says plainly when no stored
 * trace carries usage.
 */
export function TraceUsagePanel({ sessionsWithUsage }: { sessionsWithUsage: number }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [answer, setAnswer] = useState<{ ok: true; logId: string; created: boolean; rows: number } | { ok: false; message: string } | null>(null);

  function build(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const account = new FormData(event.currentTarget).get("account") === "session" ? "session" : "uploader";
    startTransition(async () => {
      const result = await usageFromTracesAction({ account });
      setAnswer(result.ok ? { ok: true, ...result.data } : { ok: false, message: result.message });
      if (result.ok && result.data.created) router.refresh();
    });
  }

  return (
    <section className="card card-body stack" aria-label="Use usage from uploaded traces">
      <h2>Use usage from uploaded traces</h2>
      {sessionsWithUsage === 0 ? (
        <p className="faint" data-testid="trace-usage-empty">
          No uploaded trace carries provider usage. Claude Code, Codex and mini-swe-agent traces record the tokens of every model call: upload some on the{" "}
          <Link href="/traces">Traces</Link> page and they can serve as traffic here.
        </p>
      ) : (
        <form className="row" style={{ gap: 12, alignItems: "end", flexWrap: "wrap" }} onSubmit={build}>
          <p className="faint" style={{ flex: "1 1 100%" }}>
            {plural(sessionsWithUsage, "stored session")} {nounFor(sessionsWithUsage, "carries", "carry")} the provider&apos;s token usage per model call. Each
            call becomes a usage row (the trace format as its surface); the log is stored like an uploaded one.
          </p>
          <label className="field">
            Account of each call
            <select className="select" name="account" defaultValue="uploader">
              <option value="uploader">Who uploaded the trace (e-mail)</option>
              <option value="session">The session (one account per trace session)</option>
            </select>
          </label>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? "Building…" : "Build usage log"}
          </button>
        </form>
      )}
      {answer?.ok === false ? (
        <p className="alert alert-error" role="alert">
          {answer.message}
        </p>
      ) : null}
      {answer?.ok ? (
        <p className="alert alert-ok" role="status">
          {answer.created ? `Built a usage log of ${plural(answer.rows, "call")}.` : "These traces already gave a usage log."}{" "}
          <Link href={`/online/${answer.logId}`}>Open the report</Link>
        </p>
      ) : null}
    </section>
  );
}
