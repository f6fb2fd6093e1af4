"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { ShortcutsOverlay, type Shortcut } from "@/components/ui/shortcuts-overlay";
import type { ObjectSummary, SearchHit, SearchResult, SessionOverview } from "@/server/trace/session/types";
import { CompactionDivider } from "./compaction-divider";
import { MessageRow, type Highlight } from "./message-row";
import { ObjectsPanel } from "./objects-panel";
import type { JumpTarget } from "./part-view";
import { SearchBar } from "./search-bar";
import { buildTimelineLayout, estimateMessageHeight } from "./timeline-items";
import { useMessageWindows } from "./use-message-windows";
import { useSessionSearch } from "./use-session-search";
import { useSettledJump } from "./use-settled-jump";
import { useTimelineKeys } from "./use-timeline-keys";
import styles from "./session-viewer.module.css";

/** Messages fetched beyond what is on screen, each way. */
const PREFETCH = 20;

/** What `?` lists on this page (use-timeline-keys.ts and the search box's own keys). */
export const SESSION_SHORTCUTS: Shortcut[] = [
  ["/", "search text or jump to an object id"],
  ["Enter", "next match (in the search box)"],
  ["Shift+Enter", "previous match (in the search box)"],
  ["j", "next message"],
  ["k", "previous message"],
  ["g", "first message"],
  ["G", "last message"],
  ["?", "show this list"],
  ["Esc", "clear the search, leave the box, close this list"],
];

/**
 * The session timeline: a virtualized list of every message (bodies fetched by window on demand)
 * with native compactions as divider rows, the context-object panel, search and shortcuts.
 * Mount one per session (`key={overview.id}`).
 */
export function SessionViewer({ overview, header }: { overview: SessionOverview; header: ReactNode }) {
  const { messageCount } = overview;
  const layout = useMemo(() => buildTimelineLayout(messageCount, overview.compactions), [messageCount, overview.compactions]);
  const objectsById = useMemo(() => new Map(overview.objects.map((o) => [o.id, o])), [overview.objects]);
  const windows = useMessageWindows(overview.id, messageCount);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const seq = useRef(0);
  const [highlight, setHighlight] = useState<Highlight>();
  const [active, setActive] = useState<number>();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [loadingFull, setLoadingFull] = useState<ReadonlySet<number>>(() => new Set());
  const [openSummaries, setOpenSummaries] = useState<ReadonlySet<number>>(() => new Set());
  const [notice, setNotice] = useState<string>();
  const [help, setHelp] = useState(false);

  const virtualizer = useVirtualizer({
    count: layout.count,
    getScrollElement: () => scrollRef.current,
    estimateSize: (position) => {
      const item = layout.itemAt(position);
      return item.kind === "compaction" ? 46 : estimateMessageHeight(overview.messageTokens[item.index] ?? 0);
    },
    getItemKey: (position) => {
      const item = layout.itemAt(position);
      return item.kind === "compaction" ? `c${item.ordinal}` : item.index;
    },
    overscan: 6,
    scrollPaddingStart: 6,
  });
  const items = virtualizer.getVirtualItems();

  const firstPosition = items[0]?.index ?? 0;
  const lastPosition = items[items.length - 1]?.index ?? -1;
  useEffect(() => {
    if (lastPosition < firstPosition) return;
    const first = messageAtOrAfter(layout, firstPosition);
    const last = messageAtOrAfter(layout, lastPosition);
    windows.want(Math.max(0, first - PREFETCH), Math.min(messageCount - 1, last + PREFETCH));
  }, [firstPosition, lastPosition, layout, messageCount, windows.want]);

  /** The target row and the rows after it (what fills the screen) have their bodies. */
  const isLoadedAround = useCallback(
    (position: number) => {
      const target = messageAtOrAfter(layout, position);
      return windows.slot(target).status !== "loading" && windows.slot(Math.min(messageCount - 1, target + PREFETCH)).status !== "loading";
    },
    [layout, windows.slot, messageCount],
  );
  const { scrollToPosition, cancelPendingJump } = useSettledJump(virtualizer, isLoadedAround, windows.version);

  /** The message the reader is on: the active one while it is on screen, else the top one. */
  const currentMessage = useCallback((): number => {
    const offset = virtualizer.scrollOffset ?? 0;
    const top = virtualizer.getVirtualItemForOffset(offset + 8);
    const topMessage = top ? messageAtOrAfter(layout, top.index) : 0;
    const visible = virtualizer.getVirtualItems();
    const lastVisible = visible.length ? messageAtOrAfter(layout, visible[visible.length - 1]!.index) : topMessage;
    return active !== undefined && active >= topMessage - 1 && active <= lastVisible ? active : topMessage;
  }, [virtualizer, layout, active]);

  const jump = useCallback(
    (target: JumpTarget & { needle?: string }) => {
      if (messageCount === 0) return;
      const message = Math.min(Math.max(0, target.message), messageCount - 1);
      scrollToPosition(layout.positionOfMessage(message));
      setActive(message);
      seq.current += 1;
      setHighlight({ ...target, message, seq: seq.current });
    },
    [scrollToPosition, layout, messageCount],
  );

  const jumpToObject = useCallback(
    (object: ObjectSummary) => {
      jump({
        message: object.partMessage ?? object.firstMessage,
        ...(object.partIndex !== undefined ? { part: object.partIndex } : {}),
        objectId: object.id,
      });
    },
    [jump],
  );

  const onHit = useCallback(
    (hit: SearchHit, result: SearchResult) => {
      const object = hit.objectId ? objectsById.get(hit.objectId) : undefined;
      if (object) jumpToObject(object);
      else jump({ message: hit.message, ...(hit.part !== undefined ? { part: hit.part } : {}), ...(result.mode === "text" ? { needle: result.query } : {}) });
    },
    [objectsById, jump, jumpToObject],
  );
  const search = useSessionSearch(overview.id, { currentMessage, onHit });
  const needle = search.state.status === "done" && search.state.result.mode === "text" ? search.state.result.query : undefined;

  const keys = useMemo(
    () => ({
      focusSearch: () => {
        searchRef.current?.focus();
        searchRef.current?.select();
      },
      next: () => jump({ message: currentMessage() + 1 }),
      previous: () => jump({ message: currentMessage() - 1 }),
      top: () => jump({ message: 0 }),
      bottom: () => jump({ message: messageCount - 1 }),
      help: () => setHelp(true),
    }),
    [jump, currentMessage, messageCount],
  );
  useTimelineKeys(keys);

  const jumpToCompaction = useCallback(
    (ordinal: number) => {
      const position = layout.positionOfCompaction(ordinal);
      if (position === -1) return;
      scrollToPosition(position);
      setOpenSummaries((previous) => new Set(previous).add(ordinal));
    },
    [scrollToPosition, layout],
  );

  useEffect(() => {
    // Deep links: #message-12, #compaction-0 or an object id (#function:read:3).
    const follow = () => {
      const hash = decodeURIComponent(window.location.hash.slice(1));
      const byIndex = /^message-(\d+)$/.exec(hash);
      const byCompaction = /^compaction-(\d+)$/.exec(hash);
      if (byIndex) jump({ message: Number(byIndex[1]) });
      else if (byCompaction) jumpToCompaction(Number(byCompaction[1]));
      else if (objectsById.has(hash)) jumpToObject(objectsById.get(hash)!);
    };
    follow();
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, [jump, jumpToCompaction, jumpToObject, objectsById]);

  const togglePart = useCallback(
    (message: number, part: number, expand: boolean, truncated: boolean) => {
      const key = `${message}:${part}`;
      setExpanded((previous) => {
        const next = new Set(previous);
        if (expand) next.add(key);
        else next.delete(key);
        return next;
      });
      if (!expand || !truncated) return;
      setLoadingFull((previous) => new Set(previous).add(message));
      windows
        .loadFull(message)
        .catch((error: unknown) => {
          setNotice(`Could not load message #${message} in full: ${error instanceof Error ? error.message : String(error)}`);
          setExpanded((previous) => {
            const next = new Set(previous);
            next.delete(key);
            return next;
          });
        })
        .finally(() =>
          setLoadingFull((previous) => {
            const next = new Set(previous);
            next.delete(message);
            return next;
          }),
        );
    },
    [windows.loadFull],
  );

  const isExpanded = useCallback((message: number, part: number) => expanded.has(`${message}:${part}`), [expanded]);

  const toggleSummary = useCallback((ordinal: number) => {
    setOpenSummaries((previous) => {
      const next = new Set(previous);
      if (!next.delete(ordinal)) next.add(ordinal);
      return next;
    });
  }, []);

  return (
    <div className={styles.screen}>
      {header}
      <div className={styles.body}>
        <section className={styles.timelineColumn} aria-label="Timeline">
          <div className={styles.toolbar}>
            <SearchBar
              inputRef={searchRef}
              query={search.query}
              state={search.state}
              onQueryChange={search.setQuery}
              onSubmit={(d) => void search.submit(d)}
              onClear={search.clear}
            />
            <span className={styles.keysHint} aria-hidden="true">
              <kbd>/</kbd> search <kbd>j</kbd>
              <kbd>k</kbd> next/prev <kbd>g</kbd>
              <kbd>G</kbd> top/bottom
            </span>
            <button type="button" className="btn btn-sm btn-ghost" onClick={() => setHelp(true)} aria-keyshortcuts="?">
              Shortcuts <kbd>?</kbd>
            </button>
          </div>
          {notice ? (
            <div className={`alert alert-error ${styles.notice}`} role="alert">
              {notice}{" "}
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => setNotice(undefined)}>
                Dismiss
              </button>
            </div>
          ) : null}
          <div
            ref={scrollRef}
            className={styles.timeline}
            data-testid="timeline"
            onWheel={cancelPendingJump}
            onPointerDown={cancelPendingJump}
            onTouchStart={cancelPendingJump}
          >
            {messageCount === 0 ? (
              <div className="empty">
                <h2>No messages</h2>
                <p>This session was imported without any messages, so there is nothing to show.</p>
              </div>
            ) : (
              <div style={{ height: virtualizer.getTotalSize(), position: "relative", width: "100%" }}>
                <div style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${items[0]?.start ?? 0}px)` }}>
                  {items.map((item) => {
                    const entry = layout.itemAt(item.index);
                    return (
                      <div key={item.key} data-index={item.index} ref={virtualizer.measureElement}>
                        {entry.kind === "compaction" ? (
                          <CompactionDivider
                            compaction={entry.compaction}
                            expanded={openSummaries.has(entry.ordinal)}
                            onToggle={() => toggleSummary(entry.ordinal)}
                          />
                        ) : (
                          <MessageRow
                            index={entry.index}
                            roleCode={overview.roleCodes[entry.index] ?? "?"}
                            tokens={overview.messageTokens[entry.index] ?? 0}
                            maxTokens={overview.maxMessageTokens}
                            slot={windows.slot(entry.index)}
                            isActive={active === entry.index}
                            highlight={highlight?.message === entry.index ? highlight : undefined}
                            needle={needle}
                            isExpanded={isExpanded}
                            loadingFull={loadingFull.has(entry.index)}
                            onTogglePart={togglePart}
                            onJump={jump}
                            onRetry={windows.retry}
                          />
                        )}
                      </div>
                    );
                  })}
                </div>
              </div>
            )}
          </div>
        </section>
        <ObjectsPanel objects={overview.objects} activeId={highlight?.objectId} onSelect={jumpToObject} />
      </div>
      {help ? <ShortcutsOverlay shortcuts={SESSION_SHORTCUTS} onClose={() => setHelp(false)} /> : null}
    </div>
  );
}

/** The message at a timeline position, or the one right after a divider (clamped to the last). */
export function messageAtOrAfter(layout: ReturnType<typeof buildTimelineLayout>, position: number): number {
  for (let p = position; p < layout.count; p++) {
    const item = layout.itemAt(p);
    if (item.kind === "message") return item.index;
  }
  for (let p = position - 1; p >= 0; p--) {
    const item = layout.itemAt(p);
    if (item.kind === "message") return item.index;
  }
  return 0;
}
