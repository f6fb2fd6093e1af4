"use client";

import type { Virtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef } from "react";

/** How long after a jump late-arriving bodies may still re-align the target row. */
const JUMP_SETTLE_MS = 4000;
/** Keys that scroll by hand and so cancel a pending jump. */
const SCROLL_KEYS = new Set(["PageUp", "PageDown", "ArrowUp", "ArrowDown", "Home", "End", " "]);

/**
 * Scrolls a row to the top of the timeline and keeps it there while bodies load. The virtualizer
 * settles on estimated heights; when the rows around the target then get their bodies (and real
 * heights), the target drifts — most visibly at the end, where `G` would stop short of the last
 * message. So the jump is re-applied after each window arrives until the rows around the target
 * are loaded, for at most JUMP_SETTLE_MS, and never after the reader scrolls by hand
 * (`cancelPendingJump` on wheel/pointer/touch; scrolling keys cancel it here).
 */
export function useSettledJump(virtualizer: Virtualizer<HTMLDivElement, Element>, isLoadedAround: (position: number) => boolean, version: number) {
  const pending = useRef<{ position: number; at: number }>(undefined);

  const scrollToPosition = useCallback(
    (position: number) => {
      pending.current = isLoadedAround(position) ? undefined : { position, at: performance.now() };
      virtualizer.scrollToIndex(position, { align: "start" });
    },
    [virtualizer, isLoadedAround],
  );

  useEffect(() => {
    const jump = pending.current;
    if (!jump) return;
    if (performance.now() - jump.at > JUMP_SETTLE_MS) {
      pending.current = undefined;
      return;
    }
    if (isLoadedAround(jump.position)) pending.current = undefined; // this is the last pass
    let inner = 0;
    // Two frames: the new bodies render, then the ResizeObserver measures them.
    const outer = requestAnimationFrame(() => {
      inner = requestAnimationFrame(() => virtualizer.scrollToIndex(jump.position, { align: "start" }));
    });
    return () => {
      cancelAnimationFrame(outer);
      cancelAnimationFrame(inner);
    };
  }, [version, isLoadedAround, virtualizer]);

  const cancelPendingJump = useCallback(() => {
    pending.current = undefined;
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (SCROLL_KEYS.has(event.key)) cancelPendingJump();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [cancelPendingJump]);

  return { scrollToPosition, cancelPendingJump };
}
