import Link from "next/link";
import type { RolloutSessionRow } from "@/server/rollout/get-rollout";
import { int, pct } from "./rollout-format";
import { rolloutCallHref, sessionMessageHref } from "./rollout-links";

/**
 * One row per rolled-out session; per policy its prompt-token reduction and lost steps, and for a
 * policy that lost something, a link that opens the first call whose step needed a lost value with
 * the view the agent had there (the rollout's committed view and the messages since), and one to
 * that call's message in the original session. Titles are rendered as text.
 */
export function RolloutSessionsTable({ runId, sessions, policies }: { runId: string; sessions: RolloutSessionRow[]; policies: string[] }) {
  return (
    <div className="card dt-scroll">
      <table className="dt" aria-label="Rollout per session" data-testid="rollout-sessions">
        <thead>
          <tr>
            <th>Session</th>
            <th>Model (priced as)</th>
            <th className="num">Window</th>
            <th className="num">Calls</th>
            {policies.map((p) => (
              <th key={p} className="mono">
                {p}: saved · lost
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.sessionId}>
              <td>
                <Link href={`/sessions/${encodeURIComponent(s.sessionId)}`}>{s.title ?? s.session}</Link>
                <div className="faint">{s.format}</div>
              </td>
              <td className="mono">
                {s.model ?? "—"} {s.priced ? <span className="faint">({s.priced})</span> : <span className="faint">(unpriced)</span>}
              </td>
              <td className="num">{int(s.window)}</td>
              <td className="num">{int(s.policies[0]?.calls ?? 0)}</td>
              {s.policies.map((p) => {
                const first = p.firstLosses[0];
                return (
                  <td key={p.id}>
                    {pct(p.reductionPct)} · {p.lostSteps}
                    {first ? (
                      <div>
                        <Link
                          href={rolloutCallHref(runId, s.sessionId, p.id, first.call)}
                          data-testid="lost-call-link"
                          title={`lost: ${first.values.join(", ").slice(0, 300)}`}
                        >
                          call {first.call + 1} lost {first.values.length === 1 ? "a value" : `${first.values.length} values`}
                        </Link>{" "}
                        ·{" "}
                        <Link href={sessionMessageHref(s.sessionId, first.message)} className="faint" data-testid="lost-session-link">
                          in the session
                        </Link>
                      </div>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
