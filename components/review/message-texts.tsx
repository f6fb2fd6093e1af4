"use client";

import type { MessageText } from "./review-types";

export interface SelectedSpan {
  message: number;
  part: number;
  start: number;
  end: number;
  text: string;
}

/**
 * Messages of the trace as plain text (never HTML), one <pre> per part holding a single text node,
 * so a selection maps to exact UTF-16 offsets of the part's readable text — the offsets dependency
 * spans use. `onSelect` gets the span of a selection that starts and ends inside one part.
 */
export function MessageTexts({
  messages,
  area,
  onSelect,
  highlight,
}: {
  messages: MessageText[];
  area: "prefix" | "future" | "view";
  onSelect?: (span: SelectedSpan) => void;
  highlight?: { message: number; part: number };
}) {
  function handleMouseUp() {
    const span = selectedSpan(messages);
    if (span && onSelect) onSelect(span);
  }
  return (
    <div className="review-messages" data-area={area} onMouseUp={handleMouseUp} onKeyUp={handleMouseUp}>
      {messages.map((m) => (
        <div key={m.message} className="review-message" data-role={m.role}>
          <div className="review-message-head muted">
            #{m.message} {m.role}
          </div>
          {m.parts.map((p) => (
            <div
              key={p.part}
              className={highlight && highlight.message === m.message && highlight.part === p.part ? "review-part review-part-hit" : "review-part"}
            >
              {p.type !== "text" ? <div className="muted review-part-type">{p.name ? `${p.type} · ${p.name}` : p.type}</div> : null}
              <pre data-message={m.message} data-part={p.part} data-testid={`${area}-part-${m.message}-${p.part}`}>
                {p.text}
              </pre>
              {p.truncated ? <div className="muted">… (part shortened for display)</div> : null}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

/** The current selection as a span of one part, or undefined (empty, or across parts). */
function selectedSpan(messages: MessageText[]): SelectedSpan | undefined {
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return undefined;
  const range = selection.getRangeAt(0);
  const pre = preOf(range.startContainer);
  if (!pre || pre !== preOf(range.endContainer)) return undefined;
  const message = Number(pre.dataset.message);
  const part = Number(pre.dataset.part);
  const text = messages.find((m) => m.message === message)?.parts.find((p) => p.part === part)?.text;
  if (text === undefined) return undefined;
  const start = offsetWithin(pre, range.startContainer, range.startOffset);
  const end = offsetWithin(pre, range.endContainer, range.endOffset);
  if (end <= start) return undefined;
  return { message, part, start, end, text: text.slice(start, end) };
}

function preOf(node: Node): HTMLPreElement | null {
  const element = node instanceof Element ? node : node.parentElement;
  return element?.closest("pre[data-message]") ?? null;
}

function offsetWithin(root: Node, container: Node, offset: number): number {
  const range = document.createRange();
  range.setStart(root, 0);
  range.setEnd(container, offset);
  return range.toString().length;
}
