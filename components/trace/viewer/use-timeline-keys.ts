"use client";

import { useEffect } from "react";

export interface TimelineKeyHandlers {
  focusSearch(): void;
  next(): void;
  previous(): void;
  top(): void;
  bottom(): void;
  /** `?`: the list of these shortcuts. */
  help(): void;
}

/**
 * Reader shortcuts: `/` focuses search, `j`/`k` next/previous message, `g`/`G` top/bottom, `?` the
 * list of shortcuts. Ignored while typing in a field, with a modifier held (so browser shortcuts
 * keep working) or while a modal dialog is open (Esc closes it).
 */
export function useTimelineKeys(handlers: TimelineKeyHandlers): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      const action =
        event.key === "/"
          ? handlers.focusSearch
          : event.key === "j"
            ? handlers.next
            : event.key === "k"
              ? handlers.previous
              : event.key === "g"
                ? handlers.top
                : event.key === "G"
                  ? handlers.bottom
                  : event.key === "?"
                    ? handlers.help
                    : undefined;
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [handlers]);
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}
