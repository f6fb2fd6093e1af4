import Link from "next/link";
import type { RolloutSessionRow } from "@/server/rollout/get-rollout";
import { int, pct } from "./rollout-format";

/** `/sessions/<id>#message-<n>`: the session's replay page scrolled to the message of the call. */
export function sessionMessageHref(sessionId: string, message: number): string {
  return `/sessions/${encodeURIComponent(sessionId)}#message-${message}`;
}

/** `/sessions/<id>/compact?policy=&cut=&window=`: the policy replayed at a commit's call, with the rollout's window. */
function replayHref(sessionId: string, policy: string, cut: number, window: number): string {
  return `/sessions/${encodeURIComponent(sessionId)}/compact?${new URLSearchParams({ policy, cut: String(cut), window: String(window) }).toString()}`;
}

/**
 * One row per rolled-out session; per policy its prompt-token reduction and lost steps, and for a
 * policy that lost something, a link that opens the session at the first call whose step needed a lost
 * value, and one that replays the policy at the commit that lost it (for a first-round loss, the view
 * the agent had: before its first commit the rollout's session is the original). Titles are rendered as text.
 */
export function RolloutSessionsTable({ sessions, policies }: { sessions: RolloutSessionRow[]; policies: string[] }) {
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
              {s.policies.map((p, i) => {
                const first = p.firstLosses[0];
                const commit = s.firstLossCommits[i];
                return (
                  <td key={p.id}>
                    {pct(p.reductionPct)} · {p.lostSteps}
                    {first ? (
                      <div>
                        <Link
                          href={sessionMessageHref(s.sessionId, first.message)}
                          data-testid="lost-call-link"
                          title={`lost: ${first.values.join(", ").slice(0, 300)}`}
                        >
                          call {first.call + 1} lost {first.values.length === 1 ? "a value" : `${first.values.length} values`}
                        </Link>
                        {commit ? (
                          <>
                            {" "}
                            ·{" "}
                            <Link href={replayHref(s.sessionId, p.id, commit.message, s.window)} className="faint" data-testid="lost-view-link">
                              view committed in round {commit.round}
                            </Link>
                          </>
                        ) : null}
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
