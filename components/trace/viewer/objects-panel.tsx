"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { plural } from "@/lib/util/plural";
import type { ObjectSummary } from "@/server/trace/session/types";
import textStyles from "./timeline-text.module.css";
import styles from "./objects-panel.module.css";

const ROW_HEIGHT = 26;
type KindFilter = "all" | "conversation" | "function";

/**
 * The session's indexed context objects, filterable by id substring and kind; clicking one scrolls
 * the timeline to it. Virtualized: long sessions have thousands of objects.
 */
export const ObjectsPanel = memo(function ObjectsPanel(props: {
  objects: ObjectSummary[];
  activeId: string | undefined;
  onSelect(object: ObjectSummary): void;
}) {
  const { objects, activeId, onSelect } = props;
  const [filter, setFilter] = useState("");
  const [kind, setKind] = useState<KindFilter>("all");
  const deferredFilter = useDeferredValue(filter);
  const scrollRef = useRef<HTMLDivElement>(null);

  const visible = useMemo(() => {
    const needle = deferredFilter.trim().toLowerCase();
    return objects.filter((o) => (kind === "all" || o.kind === kind) && (!needle || o.id.toLowerCase().includes(needle)));
  }, [objects, deferredFilter, kind]);
  const maxTokens = useMemo(() => objects.reduce((max, o) => (o.kind === "function" && o.tokens > max ? o.tokens : max), 1), [objects]);

  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  // Keep the object the timeline jumped to in sight (only when it changes, not on every filter edit).
  useEffect(() => {
    if (!activeId) return;
    const i = visible.findIndex((o) => o.id === activeId);
    if (i !== -1) virtualizer.scrollToIndex(i, { align: "auto" });
  }, [activeId]);

  return (
    <aside className={styles.panel} aria-label="Context objects">
      <div className={styles.panelHead}>
        <h2 className={styles.panelTitle}>
          Context objects{" "}
          <span className={textStyles.faint}>{visible.length === objects.length ? objects.length : `${visible.length} / ${objects.length}`}</span>
        </h2>
        <div className={styles.panelFilters}>
          <input
            className="input"
            type="search"
            placeholder="Filter: read, user:3, grep…"
            aria-label="Filter objects"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
          <select className="select" aria-label="Object kind" value={kind} onChange={(event) => setKind(event.target.value as KindFilter)}>
            <option value="all">All</option>
            <option value="conversation">Requests</option>
            <option value="function">Tool results</option>
          </select>
        </div>
      </div>
      <div ref={scrollRef} className={styles.panelList} role="list">
        {visible.length === 0 ? (
          <p className={styles.panelEmpty}>{objects.length === 0 ? "This session has no context objects." : "No object matches the filter."}</p>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {virtualizer.getVirtualItems().map((item) => {
              const object = visible[item.index]!;
              return (
                <div key={object.id} role="listitem" className={styles.objectItem} style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
                  <button
                    type="button"
                    className={styles.objectRow}
                    data-kind={object.kind}
                    data-active={object.id === activeId || undefined}
                    data-error={object.isError || undefined}
                    onClick={() => onSelect(object)}
                    aria-label={`${object.id} (${plural(object.tokens, "token")})`}
                    title={`${object.id} · messages ${object.firstMessage}–${object.lastMessage} · ${plural(object.tokens, "token")}`}
                  >
                    <span className={styles.objectRowId}>
                      <span className={styles.objectRowPrefix}>{object.id.slice(0, object.id.lastIndexOf(":"))}</span>
                      {object.id.slice(object.id.lastIndexOf(":"))}
                    </span>
                    {object.kind === "function" ? (
                      <span className={styles.objectRowBar} aria-hidden="true">
                        <span style={{ width: `${Math.max(3, Math.min(100, (object.tokens / maxTokens) * 100))}%` }} />
                      </span>
                    ) : null}
                    <span className={styles.objectRowTokens}>{object.tokens.toLocaleString("en-US")}</span>
                  </button>
                </div>
              );
            })}
          </div>
        )}
      </div>
    </aside>
  );
});
