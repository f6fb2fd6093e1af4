"use client";

import { useState } from "react";
import { commentAction } from "@/app/(studio)/review/actions";
import { formatDateTime } from "@/lib/util/format-date-time";
import { withRetry } from "./review-types";

/** Comments on the open item (plain text), and a box to add one. */
export function CommentBox({ queueId, itemKey, comments, onSaved }: { queueId: string; itemKey: string; comments: { author: string; body: string; createdAt: string }[]; onSaved: () => void }) {
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const result = await withRetry(() => commentAction({ queueId, itemKey, body }));
    if (!result.ok) return setError(result.message);
    setBody("");
    setError(null);
    onSaved();
  }
  return (
    <section className="card card-body stack" aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments ({comments.length})</h2>
      <ul>
        {comments.map((c, i) => (
          <li key={i}>
            <strong>{c.author}</strong> <span className="muted">{formatDateTime(c.createdAt)}</span>
            <pre>{c.body}</pre>
          </li>
        ))}
      </ul>
      <form onSubmit={submit} className="stack">
        <label>
          Add a comment
          <textarea value={body} onChange={(e) => setBody(e.target.value)} rows={2} />
        </label>
        {error ? <p className="field-error" role="alert">{error}</p> : null}
        <button type="submit" className="btn btn-sm" disabled={!body.trim()}>
          Comment
        </button>
      </form>
    </section>
  );
}
