"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from "react";
import type { PolicyAction } from "@/lib/compaction/projection/types";
import { plural } from "@/lib/util/plural";
import type { CompactRun, SidecarRef } from "@/server/compaction/compaction-api";
import { alignRows, rowOfMessageTarget, rowsByTarget, type AlignedRow } from "./aligned-rows";
import { ActionLegend } from "./action-legend";
import { OriginalCell } from "./original-cell";
import { GoneCell, ProjectedCell } from "./projected-cell";
import type { OriginalSlot, PrefixWindows } from "./use-prefix-windows";
import rowStyles from "./replay-row.module.css";
import labelStyles from "./run-labels.module.css";
import styles from "./projection-grid.module.css";

/** The sticky app header's height plus a little air. */
const HEADER_OFFSET = 56;

/** Above this many rows only what is on screen is rendered. */
export const VIRTUALIZE_FROM = 300;

export interface GridHandle {
  /** Scrolls every column to the first row the target touches; false when it touches none. */
  scrollToTarget(target: string): boolean;
}

export interface ProjectionGridProps {
  runs: readonly CompactRun[];
  showOriginal: boolean;
  onShowOriginal?: ((show: boolean) => void) | undefined;
  windows: PrefixWindows;
  onRestore(sidecar: SidecarRef): void;
  ref?: Ref<GridHandle>;
}

interface RunView {
  run: CompactRun;
  decisions: Map<string, PolicyAction>;
  sidecars: Map<string, SidecarRef>;
}

/**
 * The original prefix and the projected view(s), aligned by original message in one scroll
 * container (so clicking a target scrolls every column to it). Rendered whole up to
 * VIRTUALIZE_FROM rows, virtualized beyond; original bodies are fetched by window as rows appear.
 */
export function ProjectionGrid({ runs, showOriginal, onShowOriginal, windows, onRestore, ref }: ProjectionGridProps) {
  const [changedOnly, setChangedOnly] = useState(false);
  const [focused, setFocused] = useState<{ row: number; seq: number }>();
  const scrollRef = useRef<HTMLDivElement>(null);
  const cardRef = useRef<HTMLElement>(null);
  const allRows = useMemo(() => alignRows(runs), [runs]);
  const rows = useMemo(() => (changedOnly ? allRows.filter((r) => r.changed) : allRows), [allRows, changedOnly]);
  const targets = useMemo(() => rowsByTarget(rows, runs), [rows, runs]);
  const firstOf = useMemo(() => firstMessageOfTargets(runs), [runs]);
  const views = useMemo<RunView[]>(
    () =>
      runs.map((run) => ({
        run,
        decisions: new Map(run.actions.map((a) => [a.target, a])),
        sidecars: new Map(run.sidecars.map((s) => [s.sha256, s])),
      })),
    [runs],
  );
  const virtual = rows.length > VIRTUALIZE_FROM;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => estimateRow(rows[i], runs[0]),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 6,
    enabled: virtual,
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const cut = runs[0]?.cut ?? 0;

  // Fetch the original bodies of what is on screen (everything when not virtualized).
  const firstItem = items[0]?.index ?? 0;
  const lastItem = items.at(-1)?.index ?? -1;
  const { want, retry, loadFull } = windows;
  useEffect(() => {
    if (!virtual) return want(0, cut - 1);
    const originals = rows.slice(firstItem, lastItem + 1).flatMap((r) => (r.original !== undefined ? [r.original] : []));
    if (originals.length > 0) want(Math.max(0, originals[0]! - 10), originals.at(-1)! + 10);
  }, [virtual, want, cut, rows, firstItem, lastItem]);

  const scrollToRow = useCallback(
    (row: number) => {
      setFocused((f) => ({ row, seq: (f?.seq ?? 0) + 1 }));
      // Bring the whole grid on screen first (below the sticky app header), then the row inside it.
      const card = cardRef.current?.getBoundingClientRect();
      if (card && (card.top < HEADER_OFFSET || card.bottom > window.innerHeight)) window.scrollBy({ top: card.top - HEADER_OFFSET });
      if (virtual) virtualizer.scrollToIndex(row, { align: "center" });
      else {
        const element = scrollRef.current?.querySelector<HTMLElement>(`[data-row="${row}"]`);
        const container = scrollRef.current;
        if (element && container)
          container.scrollTop = element.offsetTop - container.clientHeight / 2 + Math.min(element.offsetHeight, container.clientHeight) / 2;
      }
    },
    [virtual, virtualizer],
  );
  const scrollToTarget = useCallback(
    (target: string) => {
      const row = targets.get(target) ?? rowOfMessageTarget(target, rows);
      if (row === undefined) return false;
      scrollToRow(row);
      return true;
    },
    [targets, rows, scrollToRow],
  );
  useImperativeHandle(ref, () => ({ scrollToTarget }), [scrollToTarget]);

  const columns = (showOriginal ? 1 : 0) + runs.length;
  const template = { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` };
  const renderRow = (row: AlignedRow, i: number) => (
    <GridRow
      key={row.key}
      row={row}
      rowIndex={i}
      views={views}
      showOriginal={showOriginal}
      slot={row.original !== undefined && showOriginal ? windows.slot(row.original) : undefined}
      focusSeq={focused?.row === i ? focused.seq : undefined}
      template={template.gridTemplateColumns}
      retry={retry}
      loadFull={loadFull}
      onRestore={onRestore}
      onTarget={scrollToTarget}
      firstOf={firstOf}
    />
  );

  return (
    <section
      ref={cardRef}
      className={`card ${styles.gridCard}`}
      aria-label={showOriginal ? "Original prefix and projected view" : "Projected views"}
      data-testid="projection-grid"
    >
      <div className={styles.gridToolbar}>
        <ActionLegend />
        <div className={styles.gridToolbarRight}>
          <span className="num">
            {plural(rows.length, "row")}
            {changedOnly ? ` of ${allRows.length.toLocaleString("en-US")}` : ""}
            {virtual ? " · virtualized" : ""}
          </span>
          <label>
            <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} />
            Changed only
          </label>
          {onShowOriginal ? (
            <label>
              <input type="checkbox" checked={showOriginal} onChange={(e) => onShowOriginal(e.target.checked)} />
              Original column
            </label>
          ) : null}
        </div>
      </div>
      <div className={styles.gridHead} style={template}>
        {showOriginal ? (
          <div className={styles.colHead}>
            Original prefix
            <span className={`${labelStyles.runMeta} ${styles.runMeta}`}>
              {plural(cut, "message")} · {(runs[0]?.tokensBefore ?? 0).toLocaleString("en-US")} tok
            </span>
          </div>
        ) : null}
        {runs.map((run, r) => (
          <div key={r} className={styles.colHead} data-testid="column-head">
            Projected · <span className="mono">{run.policy}</span>
            <span className={`${labelStyles.runMeta} ${styles.runMeta}`}>
              {plural(run.view.length, "message")} · {run.tokensAfter.toLocaleString("en-US")} tok
            </span>
          </div>
        ))}
      </div>
      <div ref={scrollRef} className={styles.gridScroll} data-testid="grid-scroll">
        {virtual ? (
          <div className={styles.virtualInner} style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className={styles.virtualItem}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {renderRow(rows[item.index]!, item.index)}
              </div>
            ))}
          </div>
        ) : (
          rows.map(renderRow)
        )}
      </div>
    </section>
  );
}

interface GridRowProps {
  row: AlignedRow;
  rowIndex: number;
  views: RunView[];
  showOriginal: boolean;
  slot: OriginalSlot | undefined;
  focusSeq: number | undefined;
  template: string;
  retry: PrefixWindows["retry"];
  loadFull: PrefixWindows["loadFull"];
  onRestore(sidecar: SidecarRef): void;
  onTarget(target: string): boolean;
  firstOf: readonly ReadonlyMap<string, number>[];
}

const GridRow = memo(function GridRow({
  row,
  rowIndex,
  views,
  showOriginal,
  slot,
  focusSeq,
  template,
  retry,
  loadFull,
  onRestore,
  onTarget,
  firstOf,
}: GridRowProps) {
  const primary = views[0]!;
  const m = row.original;
  const target = (t: string) => void onTarget(t);
  return (
    <div className={styles.row} style={{ gridTemplateColumns: template }} data-row={rowIndex} data-focused={focusSeq !== undefined || undefined} key={focusSeq}>
      {showOriginal ? (
        m !== undefined && slot !== undefined ? (
          <OriginalCell
            index={m}
            slot={slot}
            mark={primary.run.marks[m]}
            decisions={primary.decisions}
            onRetry={retry}
            loadFull={loadFull}
            onTarget={target}
            firstOf={firstOf[0]!}
          />
        ) : (
          <div className={rowStyles.cell} data-kind="inserted-empty">
            inserted by the policy — not in the original
          </div>
        )
      ) : null}
      {row.cells.map((cell, c) => {
        const view = views[c]!;
        if (cell.kind === "message") {
          return (
            <ProjectedCell
              key={c}
              column={c}
              message={view.run.view[cell.view]!}
              originalTokens={m !== undefined ? view.run.marks[m]?.tokens : undefined}
              decisions={view.decisions}
              marks={view.run.marks}
              sidecars={view.sidecars}
              loadFull={loadFull}
              onRestore={onRestore}
              onTarget={target}
            />
          );
        }
        if (cell.kind === "gone" && m !== undefined) {
          return (
            <GoneCell
              key={c}
              column={c}
              index={m}
              action={cell.action}
              target={cell.target}
              decision={cell.target ? view.decisions.get(cell.target) : undefined}
              tokens={view.run.marks[m]?.tokens ?? 0}
              onTarget={target}
              explain={cell.target === undefined || firstOf[c]!.get(cell.target) === m}
            />
          );
        }
        return <div key={c} className={rowStyles.cell} data-kind="empty" />;
      })}
    </div>
  );
});

/** Per run: the first original message each action target touches. */
function firstMessageOfTargets(runs: readonly CompactRun[]): Map<string, number>[] {
  return runs.map((run) => {
    const first = new Map<string, number>();
    run.marks.forEach((mark, m) => {
      for (const part of mark.parts) if (part.target && !first.has(part.target)) first.set(part.target, m);
    });
    return first;
  });
}

function estimateRow(row: AlignedRow | undefined, run: CompactRun | undefined): number {
  if (!row) return 40;
  const tokens = row.original !== undefined ? (run?.marks[row.original]?.tokens ?? 0) : 400;
  const anyMessage = row.cells.some((c) => c.kind === "message");
  return anyMessage || row.original !== undefined ? Math.min(240, 46 + tokens * 0.4) : 34;
}
