"use client";

import { useEffect, useRef } from "react";

/** What the labeling screen does for each key (the screen decides per queue kind). */
export interface ReviewKeyActions {
  enabled: boolean;
  submit: () => void;
  undo: () => void;
  /** Any key but `u` (and bare modifiers), or a click: the last save is no longer "right before". */
  forgetLastSave: () => void;
  onEscape: () => void;
  toggleOverlay: () => void;
  /** The queue kind's own keys (y/n/1–6/a/b/t/j/k/arrows); true when the key was handled. */
  onKey: (event: KeyboardEvent) => boolean;
}

const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta", "CapsLock"]);

/**
 * The labeling screen's keyboard: keys act on the page, not while typing — except Enter, which
 * submits from the label form's inputs and from its text areas marked `data-submit-on-enter`
 * (Shift+Enter there is a new line; other forms on the page keep their own Enter), and Escape,
 * which leaves the field (so the next key is a shortcut again).
 */
export function useReviewKeys(current: ReviewKeyActions): void {
  const latest = useRef(current);
  latest.current = current;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const actions = latest.current;
      const target = event.target as HTMLElement | null;
      const typing = !!target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable);
      if (!MODIFIERS.has(event.key) && (event.key !== "u" || typing)) actions.forgetLastSave();
      if (event.key === "Escape") {
        if (typing) target.blur();
        return actions.onEscape();
      }
      // Enter on a focused button or link is that control's own.
      if (target && (target.tagName === "BUTTON" || target.tagName === "A") && event.key === "Enter") return;
      if (typing) {
        const inLabelForm = !!target.closest("[data-review-form]");
        const submits = target.tagName === "INPUT" || (target.tagName === "TEXTAREA" && target.dataset.submitOnEnter !== undefined && !event.shiftKey);
        if (event.key === "Enter" && inLabelForm && submits && !event.isComposing && actions.enabled) {
          event.preventDefault();
          actions.submit();
        }
        return;
      }
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key === "?") return actions.toggleOverlay();
      if (!actions.enabled) return;
      if (event.key === "u") return actions.undo();
      if (event.key === "Enter") return actions.submit();
      actions.onKey(event);
    };
    // A click on the page is something done after the save too: `u` then no longer means "that save".
    const onPointerDown = () => latest.current.forgetLastSave();
    window.addEventListener("keydown", onKeyDown);
    window.addEventListener("pointerdown", onPointerDown);
    return () => {
      window.removeEventListener("keydown", onKeyDown);
      window.removeEventListener("pointerdown", onPointerDown);
    };
  }, []);
}
