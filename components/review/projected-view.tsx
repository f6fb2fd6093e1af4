"use client";

import { plural } from "@/lib/util/plural";
import type { ProjectedMessage } from "./review-types";

/** A projected view as text: each part with the action that produced it (trace content is never HTML). */
export function ProjectedView({ messages, label }: { messages: ProjectedMessage[]; label: string }) {
  if (messages.length === 0) return <p className="muted">This projection could not be rebuilt (an LLM-planned policy is not re-run for review).</p>;
  return (
    <div className="review-messages" aria-label={label}>
      {messages.map((m, i) => (
        <div key={i} className="review-message" data-role={m.role}>
          <div className="review-message-head muted">
            {typeof m.origin === "number" ? `#${m.origin}` : m.origin} {m.role} · {plural(m.tokens, "token")}
          </div>
          {m.parts.map((p, j) => (
            <div key={j} className="review-part">
              {p.action || p.type !== "text" ? (
                <div className="muted review-part-type">
                  {[p.type, p.name, p.action && p.action !== "keep" ? p.action : undefined, p.objectId].filter(Boolean).join(" · ")}
                </div>
              ) : null}
              <pre>{p.text}</pre>
              {p.truncated ? <div className="muted">… ({p.length} characters in all; unchanged from the original)</div> : null}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
