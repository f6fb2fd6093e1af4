"use client";

import Link from "next/link";
import { Fragment } from "react";
import { PartFrame } from "@/components/compaction/part-frame";
import { TextBlock } from "@/components/compaction/text-block";
import { ViewMessageHead } from "@/components/compaction/view-message-head";
import type { CallMessage, CallPart, RolloutCallView } from "@/server/rollout/get-rollout-call";
import viewerRow from "@/components/ui/viewer-row.module.css";
import rowStyles from "@/components/compaction/replay-row.module.css";
import { rolloutCallHref, sessionMessageHref } from "./rollout-links";
import styles from "./rollout-call-view.module.css";

/**
 * The prompt a policy's rollout gave the model at one call: the committed head (fold pointers,
 * summaries, what each commit did to a part), the original messages since, the sidecar payloads
 * restored and still in the prompt, then the step the call produced with the lost values marked.
 * Everything from the trace is rendered as text (TextBlock, `<pre>`), never as HTML.
 */
export function RolloutCallViewer({ view }: { view: RolloutCallView }) {
  const int = (n: number) => n.toLocaleString("en-US");
  const lostIndex = view.lostCalls.findIndex((c) => c.call === view.call);
  const previous = view.lostCalls.filter((c) => c.call < view.call).at(-1);
  const next = view.lostCalls.find((c) => c.call > view.call);
  return (
    <div className="stack">
      <section className="card card-body stack" aria-label="Call summary" data-testid="call-summary">
        <p>
          <span className="mono">{view.policy}</span> ·{" "}
          <strong data-testid="call-position">
            call {int(view.call + 1)} of {int(view.calls)}
          </strong>{" "}
          · message #{view.message} ·{" "}
          <span data-testid="call-round">
            {view.round === 0
              ? "before the first commit (the original prompt)"
              : `after round ${view.round}${view.compacted ? " (committed right before this call)" : ""}`}
          </span>
        </p>
        <p data-testid="call-tokens">
          prompt tokens with {view.policy}: <strong>{int(view.tokens.with)}</strong>
          {view.tokens.restored ? ` (${int(view.tokens.view)} in the view + ${int(view.tokens.restored)} restored)` : ""} · without: {int(view.tokens.without)}{" "}
          · window {int(view.window)}
        </p>
        {view.lost.length > 0 ? (
          <div className="alert alert-error" data-testid="call-lost">
            <strong>lost here:</strong>
            <ul className={styles.lostList}>
              {view.lost.map((l, i) => (
                <li key={i} data-testid="lost-value">
                  <code className={styles.lostValue}>{l.value}</code> <span className="faint">{l.kind}</span> · {l.category.replaceAll("_", " ")} · lost in
                  round {l.round}
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <p className="faint" data-testid="call-lost-none">
            Nothing this call&apos;s step needed was lost.
          </p>
        )}
        {view.matchesRun ? null : (
          <p className="alert alert-error" role="alert" data-testid="call-mismatch">
            This prompt differs from what the run measured for this call: the session changed since the run (re-imported or grown).
          </p>
        )}
        <p className="faint">
          <Link href={`/rollouts/${encodeURIComponent(view.run.id)}`}>back to {view.run.name}</Link> ·{" "}
          <Link href={sessionMessageHref(view.sessionId, view.message)}>the original session at this call</Link>
          {previous ? (
            <>
              {" "}
              · <Link href={rolloutCallHref(view.run.id, view.sessionId, view.policy, previous.call)}>previous lost call ({int(previous.call + 1)})</Link>
            </>
          ) : null}
          {next ? (
            <>
              {" "}
              ·{" "}
              <Link href={rolloutCallHref(view.run.id, view.sessionId, view.policy, next.call)} data-testid="next-lost-call">
                next lost call ({int(next.call + 1)})
              </Link>
            </>
          ) : null}
          {lostIndex >= 0 ? ` · lost call ${lostIndex + 1} of ${view.lostCalls.length}` : ""}
        </p>
      </section>

      <section className="card card-body stack" aria-labelledby="call-prompt-heading">
        <h2 id="call-prompt-heading">The prompt at this call</h2>
        <p className="faint">
          {view.round === 0
            ? "No commit yet: the model got the original messages."
            : `The view committed in round ${view.round} (${view.messages.filter((m) => m.inHead).length} messages), then the ${view.messages.filter((m) => !m.inHead).length} original messages since.`}
        </p>
        <div data-testid="call-view">
          {view.messages.map((m, i) => (
            <Fragment key={i}>
              <Gap before={view.messages[i - 1]} message={m} />
              {i > 0 && !m.inHead && view.messages[i - 1]!.inHead ? (
                <div className={styles.divider} data-testid="head-end">
                  end of the committed view · original messages since
                </div>
              ) : null}
              <MessageBlock message={m} testId="view-message" />
            </Fragment>
          ))}
        </div>
        {view.restores.length > 0 ? (
          <div className="stack" data-testid="call-restores">
            <h3>Restored from sidecars (in the prompt until the next commit)</h3>
            {view.restores.map((r) => (
              <div key={r.sha256} className={styles.restore} data-testid="restore">
                <p className="faint">
                  <code title={r.sha256}>sha256:{r.sha256.slice(0, 16)}…</code> {r.target} · restored at call {int(r.call + 1)} · round {r.round} ·{" "}
                  {int(r.tokens)} tokens (+{int(r.cost - r.tokens)} for the restore call)
                </p>
                {r.texts.map((t, j) => (
                  <PartText key={j} part={t} />
                ))}
              </div>
            ))}
          </div>
        ) : null}
      </section>

      <section className="card card-body stack" aria-labelledby="call-step-heading">
        <h2 id="call-step-heading">The step this call produced (from the trace)</h2>
        {view.lost.length > 0 ? <p className="faint">The values the view had lost are marked where the step used them.</p> : null}
        {view.step.map((m, i) => (
          <MessageBlock key={i} message={m} testId="step-message" marks={view.lost.map((l) => l.value)} />
        ))}
      </section>
    </div>
  );
}

/** A note where the head skips original messages (removed by a commit, or behind a fold pointer or summary). */
function Gap({ before, message }: { before: CallMessage | undefined; message: CallMessage }) {
  if (typeof message.origin !== "number") return null;
  const previous = before && typeof before.origin === "number" ? before.origin : before ? undefined : -1;
  if (previous === undefined || message.origin <= previous + 1) return null;
  const from = previous + 1;
  const to = message.origin - 1;
  return (
    <div className={styles.gap} data-testid="view-gap">
      {from === to ? `message #${from} is` : `messages #${from}–#${to} are`} not in the view (removed or folded by a commit)
    </div>
  );
}

function MessageBlock({ message, testId, marks }: { message: CallMessage; testId: string; marks?: string[] }) {
  const inserted = typeof message.origin !== "number";
  return (
    <div
      className={inserted ? `${styles.message} ${rowStyles.inserted}` : styles.message}
      data-testid={testId}
      data-origin={String(message.origin)}
      data-in-head={message.inHead || undefined}
    >
      <ViewMessageHead origin={message.origin} role={message.role} />
      <div className={`${viewerRow.parts} ${rowStyles.parts}`}>
        {message.parts.map((part, p) => (
          <PartFrame
            key={p}
            kind={part.type}
            side="projected"
            action={part.action ?? "keep"}
            toolName={part.name}
            isError={part.isError}
            reminder={part.reminder}
          >
            {marks && marks.length > 0 ? <MarkedText text={part.text} values={marks} /> : <PartText part={part} />}
          </PartFrame>
        ))}
      </div>
    </div>
  );
}

function PartText({ part }: { part: CallPart }) {
  if (part.type === "image") return <pre className={`${viewerRow.text} ${rowStyles.text}`}>[image: payload not kept]</pre>;
  return (
    <TextBlock
      text={part.text}
      length={part.length}
      lines={part.lines}
      truncated={part.truncated}
      variant={part.type === "text" && !part.action ? "prose" : "mono"}
    />
  );
}

/** Text with every occurrence of the lost values wrapped in `<mark>` (React text nodes, never HTML). */
function MarkedText({ text, values }: { text: string; values: string[] }) {
  const wanted = [...new Set(values.filter((v) => v.length > 0))].sort((a, b) => b.length - a.length);
  const pieces: { text: string; marked: boolean }[] = [];
  let at = 0;
  while (at < text.length) {
    let best: { index: number; value: string } | undefined;
    for (const value of wanted) {
      const index = text.indexOf(value, at);
      if (index >= 0 && (!best || index < best.index)) best = { index, value };
    }
    if (!best) break;
    if (best.index > at) pieces.push({ text: text.slice(at, best.index), marked: false });
    pieces.push({ text: best.value, marked: true });
    at = best.index + best.value.length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), marked: false });
  return (
    <pre className={`${viewerRow.text} ${rowStyles.text} ${styles.marked}`}>
      {pieces.map((p, i) =>
        p.marked ? (
          <mark key={i} className={styles.lostMark} data-testid="lost-mark">
            {p.text}
          </mark>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </pre>
  );
}
