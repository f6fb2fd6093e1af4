"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import {
  itemActivityAction,
  openItemAction,
  queueAgreementAction,
  queueStatusAction,
  releaseItemAction,
  renewItemAction,
  saveLabelAction,
  undoLabelAction,
} from "@/app/_actions/review";
import { newLabelId, withRetry, type ItemView, type QueueAgreement, type QueueSummary, type ReviewLabel } from "./review-types";

/** Pause after the last save before the agreement is asked for (a burst of saves asks once). */
const AGREEMENT_DEBOUNCE_MS = 750;

export interface QueueStatus {
  summary: QueueSummary;
  agreement: QueueAgreement;
}

/**
 * The labeling screen's state machine: the open item (leased by the server), saves (each a new
 * label version, retried with the same labelId + version when the request fails, so a dropped
 * network neither loses nor duplicates a label), undo, navigation, and the queue's progress,
 * refreshed after every save. The agreement (κ, judges against people) costs far more than a save,
 * so it is asked for on its own request, debounced after saves and only while the tab is visible.
 */
export function useLabeling(queueId: string, canLabel: boolean, initial: QueueStatus) {
  const [view, setView] = useState<ItemView | null>(null);
  const [done, setDone] = useState(false);
  const [status, setStatus] = useState<QueueStatus>(initial);
  const [notice, setNotice] = useState<{ tone: "ok" | "error" | "info"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  /** The item whose undone answer goes back into the form (an undo right after Enter reopens it). */
  const [restored, setRestored] = useState<string | null>(null);
  const viewRef = useRef<ItemView | null>(null);
  viewRef.current = view;
  /** The save Enter just made before moving on: `u` right after it undoes that save, not one on the new item. */
  const lastSave = useRef<{ itemKey: string; labelId: string; version: number; kind: string } | null>(null);
  const forgetLastSave = useCallback(() => {
    lastSave.current = null;
  }, []);

  const agreement = useRef({ timer: undefined as ReturnType<typeof setTimeout> | undefined, inFlight: false, stale: false });
  const scheduleAgreement = useCallback(() => {
    const state = agreement.current;
    state.stale = true;
    clearTimeout(state.timer);
    state.timer = setTimeout(async function refresh() {
      if (state.inFlight || document.visibilityState !== "visible") return;
      state.inFlight = true;
      state.stale = false;
      try {
        const result = await withRetry(() => queueAgreementAction(queueId));
        if (result.ok) setStatus((s) => ({ ...s, agreement: result.data.agreement }));
      } catch {
        state.stale = true;
      } finally {
        state.inFlight = false;
      }
      // A save during the request asked again: one more refresh, after the same pause.
      if (state.stale) state.timer = setTimeout(refresh, AGREEMENT_DEBOUNCE_MS);
    }, AGREEMENT_DEBOUNCE_MS);
  }, [queueId]);

  const refreshStatus = useCallback(async () => {
    const result = await withRetry(() => queueStatusAction(queueId));
    if (result.ok) setStatus((s) => ({ ...s, summary: result.data.summary }));
    scheduleAgreement();
  }, [queueId, scheduleAgreement]);

  // A hidden tab skips agreement refreshes; it catches up when shown again. Unmounting stops the timer.
  useEffect(() => {
    const state = agreement.current;
    const onVisible = () => void (document.visibilityState === "visible" && state.stale && scheduleAgreement());
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      clearTimeout(state.timer);
    };
  }, [scheduleAgreement]);

  /** Opens the next / previous / a named item; true when that item is now open. */
  const open = useCallback(
    async (nav: { direction?: "next" | "previous"; itemKey?: string } = {}): Promise<boolean> => {
      setBusy(true);
      try {
        const current = viewRef.current?.itemKey;
        const result = await withRetry(() => openItemAction({ queueId, ...(current && !nav.itemKey ? { current } : {}), ...nav }));
        if (!result.ok) return (setNotice({ tone: "error", text: result.message }), false);
        if (!result.data.item) {
          if (nav.direction === "previous") return (setNotice({ tone: "info", text: "No earlier item." }), false);
          setView(null);
          setDone(true);
          return false;
        }
        setDone(false);
        setView(result.data.item);
        viewRef.current = result.data.item;
        return true;
      } finally {
        setBusy(false);
      }
    },
    [queueId],
  );

  /**
   * Reloads what a save or an undo changes on the open item — the reviewer's labels, who completed
   * it, the comments — not its context (the conversation does not change; the heartbeat keeps the lease).
   */
  const refreshActivity = useCallback(
    async (itemKey: string) => {
      const result = await withRetry(() => itemActivityAction({ queueId, itemKey }));
      if (!result.ok) return setNotice({ tone: "error", text: result.message });
      setView((current) => (current && current.itemKey === itemKey ? { ...current, ...result.data } : current));
    },
    [queueId],
  );

  /**
   * Appends a version to `thread` (or starts a thread); reloads the item's labels and the queue's
   * figures. `after`: "next" moves on (and remembers the save, for `u`); "reveal" reloads the whole
   * item, whose blind evidence the server now sends.
   */
  const save = useCallback(
    async (draft: Record<string, unknown>, thread?: ReviewLabel, after?: "next" | "reveal") => {
      const item = viewRef.current;
      lastSave.current = null;
      if (!item) return false;
      const labelId = thread?.labelId ?? newLabelId();
      const version = thread ? thread.version + 1 : 1;
      setBusy(true);
      try {
        const result = await withRetry(
          () => saveLabelAction({ queueId, itemKey: item.itemKey, labelId, version, draft }),
          6,
          (attempt) => setNotice({ tone: "info", text: `Connection lost; retrying the save (${attempt})…` }),
        );
        if (!result.ok) {
          setNotice({ tone: "error", text: result.message });
          return false;
        }
        setNotice({
          tone: "ok",
          text: result.data.duplicate
            ? "Saved (already stored)."
            : after === "reveal"
              ? "Saved. The judge's answer is shown below; Enter or j for the next item."
              : "Saved.",
        });
        await refreshStatus();
        if (after === "next") {
          await open({ direction: "next" });
          lastSave.current = { itemKey: item.itemKey, labelId, version, kind: String(draft.kind) };
        } else if (after === "reveal") await open({ itemKey: item.itemKey });
        else await refreshActivity(item.itemKey);
        return true;
      } catch {
        setNotice({ tone: "error", text: "The server could not be reached; your label was not saved. Try again." });
        return false;
      } finally {
        setBusy(false);
      }
    },
    [queueId, open, refreshActivity, refreshStatus],
  );

  /**
   * Undo. Right after Enter saved an item and moved on, `u` retracts that save and opens its item
   * again with the answer back in the form; otherwise it retracts the reviewer's most recent current
   * label on this item. Either way the undo is a new, retracting version (nothing is deleted).
   */
  const undo = useCallback(async () => {
    const previous = lastSave.current;
    lastSave.current = null;
    if (previous) {
      setBusy(true);
      try {
        const result = await withRetry(() => undoLabelAction({ queueId, itemKey: previous.itemKey, labelId: previous.labelId, version: previous.version + 1 }));
        if (!result.ok) return setNotice({ tone: "error", text: result.message });
        setRestored(previous.itemKey);
        await refreshStatus();
        if (await open({ itemKey: previous.itemKey }))
          setNotice({ tone: "ok", text: `Undone (${previous.kind.replace("_", " ")}): the item you just saved is open again, your answer back in the form.` });
      } finally {
        setBusy(false);
      }
      return;
    }
    const item = viewRef.current;
    const last = item?.mine.filter((l) => !l.retracted).sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0];
    if (!item || !last) return setNotice({ tone: "info", text: "Nothing to undo on this item." });
    const result = await withRetry(() => undoLabelAction({ queueId, itemKey: item.itemKey, labelId: last.labelId, version: last.version + 1 }));
    if (!result.ok) return setNotice({ tone: "error", text: result.message });
    setNotice({ tone: "ok", text: `Undone (${last.kind.replace("_", " ")}).` });
    await refreshStatus();
    await refreshActivity(item.itemKey);
  }, [queueId, open, refreshActivity, refreshStatus]);

  useEffect(() => {
    if (canLabel) void open();
  }, [canLabel, open]);

  // Leaving the screen within the studio (e.g. an admin who just created the queue goes back to the
  // run) gives the open item back at once, instead of locking it from other reviewers until it lapses.
  useEffect(
    () => () => {
      const itemKey = viewRef.current?.itemKey;
      if (canLabel && itemKey) void releaseItemAction({ queueId, itemKey }).catch(() => undefined);
    },
    [canLabel, queueId],
  );

  // Closing the tab (pagehide) or hiding it gives the open item back at once, where a server action
  // would not finish: a beacon outlives the page. The route clears only this reviewer's own lease.
  // Coming back to the tab takes the lease again (unless someone else has taken the item meanwhile).
  useEffect(() => {
    if (!canLabel) return;
    const giveBack = () => {
      const itemKey = viewRef.current?.itemKey;
      if (itemKey) navigator.sendBeacon(`/api/review/${encodeURIComponent(queueId)}/release`, new URLSearchParams({ itemKey }));
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") return giveBack();
      const itemKey = viewRef.current?.itemKey;
      if (itemKey)
        void renewItemAction({ queueId, itemKey })
          .then((r) => (!r.ok ? setNotice({ tone: "error", text: r.message }) : undefined))
          .catch(() => undefined);
    };
    window.addEventListener("pagehide", giveBack);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("pagehide", giveBack);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [canLabel, queueId]);

  // Heartbeat: renew the lease while the item is open (a closed tab lets it lapse after the timeout).
  const openKey = view?.itemKey;
  useEffect(() => {
    if (!canLabel || !openKey) return;
    const timer = setInterval(
      () => {
        void renewItemAction({ queueId, itemKey: openKey })
          .then((r) => (!r.ok ? setNotice({ tone: "error", text: r.message }) : undefined))
          .catch(() => undefined);
      },
      Math.min(60_000, (initial.summary.leaseMinutes * 60_000) / 3),
    );
    return () => clearInterval(timer);
  }, [canLabel, openKey, queueId, initial.summary.leaseMinutes]);

  return { view, done, status, notice, busy, restored, open, save, undo, forgetLastSave, setNotice, refreshStatus };
}
