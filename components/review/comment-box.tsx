"use client";

import { useState } from "react";
import "./review.css";
import { commentAction } from "@/app/_actions/review";
import { withRetry } from "./review-types";
import { formatDateTime } from "@/lib/util/format-date-time";

/** Comments on the open item (plain text), and a box to add one. */
export function CommentBox({
  queueId,
  itemKey,
  comments,
  onSaved,
}: {
  queueId: string;
  itemKey: string;
  comments: { author: string; body: string; createdAt: string }[];
  onSaved: () => void;
}) {
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
      {comments.length > 0 ? (
        <ul className="review-comments">
          {comments.map((c, i) => (
            <li key={i}>
              <strong>{c.author}</strong> <span className="faint">{formatDateTime(c.createdAt)}</span>
              <pre>{c.body}</pre>
            </li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={submit} className="stack review-form" noValidate>
        <div className="field">
          <label htmlFor="comment-body">Add a comment</label>
          <textarea
            id="comment-body"
            className="input"
            value={body}
            onChange={(e) => setBody(e.target.value)}
            rows={2}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "comment-error" : undefined}
          />
          {error ? (
            <span id="comment-error" className="field-error" role="alert">
              {error}
            </span>
          ) : null}
        </div>
        <div className="actions">
          <button type="submit" className="btn btn-sm" disabled={!body.trim()}>
            Comment
          </button>
        </div>
      </form>
    </section>
  );
}
