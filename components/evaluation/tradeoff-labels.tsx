"use client";

import { useMemo } from "react";
import { usePlotArea, useXAxisScale, useYAxisScale } from "recharts";
import { layoutLabels, type Box, type LabelPoint, type Segment } from "./label-layout";
import type { PolicyStyle } from "./policy-style";
import type { ChartPoint, PolicySeries } from "./tradeoff-series";

/** Half the whisker cap (ErrorBar width 6) plus a pixel of air. */
const WHISKER_HALF = 4;
const FONT_SIZE = 11;

/**
 * The trade-off chart's point labels, drawn inside the chart from Recharts' own scales (so each
 * label sits exactly where its point was drawn): an own-settings point is labelled with its policy,
 * a curve point with its budget. label-layout.ts places them so no label touches a point, another
 * label, a whisker or a curve segment; one that finds no free slot is left out (the legend and the
 * tooltip still name it). Labels of other policies fade while one is highlighted.
 */
export function TradeoffLabels({ series, styles, highlighted }: { series: PolicySeries[]; styles: Map<string, PolicyStyle>; highlighted: string | null }) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const plot = usePlotArea();
  const laid = useMemo(() => {
    if (!xScale || !yScale || !plot) return null;
    const px = (p: ChartPoint) => ({ x: xScale(p.x) ?? 0, y: yScale(p.y) ?? 0 });
    const points: (LabelPoint & { point: ChartPoint })[] = [];
    const obstacles: Box[] = [];
    const segments: Segment[] = [];
    for (const s of series) {
      const all = [...(s.own ? [s.own] : []), ...s.curve];
      for (const p of all) {
        const at = px(p);
        points.push({ id: p.budgetPct === undefined ? p.policy : `${p.policy}@${p.budgetPct}`, label: p.label, ...at, width: textWidth(p.label), point: p });
        const top = yScale(p.ci95[1]) ?? at.y;
        const bottom = yScale(p.ci95[0]) ?? at.y;
        obstacles.push({ left: at.x - WHISKER_HALF, right: at.x + WHISKER_HALF, top: Math.min(top, bottom) - 1, bottom: Math.max(top, bottom) + 1 });
      }
      for (let i = 1; i < s.curve.length; i++) {
        const a = px(s.curve[i - 1]!);
        const b = px(s.curve[i]!);
        segments.push({ x1: a.x, y1: a.y, x2: b.x, y2: b.y });
      }
    }
    const bounds = { left: plot.x, top: plot.y, right: plot.x + plot.width, bottom: plot.y + plot.height };
    const placed = layoutLabels(points, { bounds, obstacles, segments, hideUnplaced: true, rowHeight: 15 });
    return points.map((p, i) => ({ ...p, placed: placed[i]! }));
  }, [series, xScale, yScale, plot]);
  if (!laid) return null;
  return (
    <g className="tradeoff-labels" aria-hidden="true" pointerEvents="none">
      {laid.map(({ id, point, x, y, placed }) =>
        placed.hidden ? null : (
          <g
            key={id}
            data-testid="tradeoff-label"
            data-policy={point.policy}
            data-budget={point.budgetPct ?? "own"}
            opacity={highlighted && highlighted !== point.policy ? 0.2 : 1}
          >
            {placed.leader ? <line x1={x} y1={y} x2={placed.lineTo.x} y2={placed.lineTo.y} stroke="#9ca3af" strokeWidth={1} /> : null}
            <text
              x={placed.x}
              y={placed.y}
              dominantBaseline="central"
              fontSize={FONT_SIZE}
              fill={point.budgetPct === undefined ? "#1f2937" : (styles.get(point.policy)?.color ?? "#374151")}
              fontWeight={point.budgetPct === undefined ? 600 : 400}
            >
              {point.label}
            </text>
          </g>
        ),
      )}
    </g>
  );
}

let canvas: CanvasRenderingContext2D | null | undefined;

/** The label's rendered width (canvas measureText in the page's font), or an estimate before layout can measure. */
function textWidth(text: string): number {
  if (canvas === undefined && typeof document !== "undefined") {
    canvas = document.createElement("canvas").getContext("2d");
    if (canvas) canvas.font = `${FONT_SIZE}px ${getComputedStyle(document.body).fontFamily}`;
  }
  return canvas ? Math.ceil(canvas.measureText(text).width) + 2 : text.length * 6.6;
}
