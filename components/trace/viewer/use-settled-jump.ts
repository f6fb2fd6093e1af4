"use client";

import type { Virtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef } from "react";

/**
 * How long after a jump late-arriving bodies may still re-align the target row. Generous: on a busy
 * machine the bodies around the target can take many seconds, and a row re-measured after the
 * limit would leave the target out of view; the reader's own scrolling ends the jump sooner.
 */
const JUMP_SETTLE_MS = 30_000;
/** After the rows around the target have their bodies, how long their measuring may still move it. */
const MEASURE_SETTLE_MS = 5_000;
/** Keys that scroll by hand and so cancel a pending jump. */
const SCROLL_KEYS = new Set(["PageUp", "PageDown", "ArrowUp", "ArrowDown", "Home", "End", " "]);

/**
 * Scrolls a row to the top of the timeline and keeps it there while bodies load. The virtualizer
 * settles on estimated heights; when the rows around the target then get their bodies (and real
 * heights), the target drifts — most visibly at the end, where `G` would stop short of the last
 * message. So the jump is re-applied whenever a window arrives or the measured total height
 * changes (a body rendered and was measured), until MEASURE_SETTLE_MS after the rows around the
 * target have their bodies, for at most JUMP_SETTLE_MS in all, and never after the reader scrolls by hand
 * (`cancelPendingJump` on wheel/pointer/touch; scrolling keys cancel it here). Re-applying on the
 * measured height, not only on arrivals, is what holds the target when measuring lags the data
 * (a busy machine): the last arrival's pass may run before its rows have their real heights.
 */
export function useSettledJump(virtualizer: Virtualizer<HTMLDivElement, Element>, isLoadedAround: (position: number) => boolean, version: number) {
  const pending = useRef<{ position: number; at: number; loadedAt?: number }>(undefined);
  // Changes when rows are measured: a re-render of the viewer with a new total height.
  const totalSize = virtualizer.getTotalSize();

  const scrollToPosition = useCallback(
    (position: number) => {
      pending.current = { position, at: performance.now() };
      virtualizer.scrollToIndex(position, { align: "start" });
    },
    [virtualizer],
  );

  useEffect(() => {
    const jump = pending.current;
    if (!jump) return;
    const now = performance.now();
    if (jump.loadedAt === undefined && isLoadedAround(jump.position)) jump.loadedAt = now;
    if (now - jump.at > JUMP_SETTLE_MS || (jump.loadedAt !== undefined && now - jump.loadedAt > MEASURE_SETTLE_MS)) {
      pending.current = undefined;
      return;
    }
    let inner = 0;
    // Two frames: the new bodies render, then the ResizeObserver measures them.
    const outer = requestAnimationFrame(() => {
      inner = requestAnimationFrame(() => virtualizer.scrollToIndex(jump.position, { align: "start" }));
    });
    return () => {
      cancelAnimationFrame(outer);
      cancelAnimationFrame(inner);
    };
  }, [version, totalSize, isLoadedAround, virtualizer]);

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
