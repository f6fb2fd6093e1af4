/**
 * Places point labels on a scatter chart so they do not overlap each other or other points
 * (policies cluster: tool-prune, tool-mask-prune and hybrid sit within a few percent). Pure and
 * deterministic: the same points give the same layout, whatever order they arrive in.
 *
 * Greedy, in a fixed order (top to bottom, then left to right, then id): each label takes the
 * first free slot among right of its point, left, above, below, then stacked rows further down or
 * up on the right and then on the left. A slot is free when it stays inside the plot and touches
 * no point, no label placed before it, no extra obstacle (the whiskers of the intervals) and no
 * segment (the lines of the trade-off curves). A label that left its point's side gets a leader
 * line. When no slot is free it keeps the first one (right) — overlap is then unavoidable at that
 * size — or, with `hideUnplaced`, is marked `hidden` (the chart's legend and tooltip still name it).
 */
export interface LabelPoint {
  id: string;
  /** Pixel position of the point. */
  x: number;
  y: number;
  label: string;
  /** The label's width in pixels when measured; else `label.length × charWidth`. */
  width?: number;
}

export interface PlacedLabel {
  id: string;
  /** Text anchor position (start of the text, vertical middle). */
  x: number;
  y: number;
  /** True when the label was moved away from its point: draw a line from the point to `lineTo`. */
  leader: boolean;
  lineTo: { x: number; y: number };
  /** No free slot and `hideUnplaced`: do not draw it. */
  hidden: boolean;
}

export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface LayoutOptions {
  /** Plot area in pixels; labels stay inside it. */
  bounds: { left: number; top: number; right: number; bottom: number };
  /** Width of one character of the label font (default 6.4 px for 11 px sans). */
  charWidth?: number;
  /** Height of one label row (default 14 px). */
  rowHeight?: number;
  /** Radius kept clear around every point (default 5 px). */
  pointRadius?: number;
  /** Stacked rows tried on each side (default 8). */
  maxRows?: number;
  /** Further areas no label may touch (e.g. a whisker: its x ± half the cap, from high to low). */
  obstacles?: readonly Box[];
  /** Lines no label may cross (e.g. a trade-off curve between its points). */
  segments?: readonly Segment[];
  /** Leave a label out (`hidden`) rather than overlap when no slot is free. */
  hideUnplaced?: boolean;
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const GAP = 6;

export function layoutLabels(points: readonly LabelPoint[], options: LayoutOptions): PlacedLabel[] {
  const charWidth = options.charWidth ?? 6.4;
  const row = options.rowHeight ?? 14;
  const r = options.pointRadius ?? 5;
  const maxRows = options.maxRows ?? 8;
  const { bounds } = options;
  const obstacles: Box[] = [...points.map((p) => ({ left: p.x - r, top: p.y - r, right: p.x + r, bottom: p.y + r })), ...(options.obstacles ?? [])];
  const segments = options.segments ?? [];
  const order = [...points].sort((a, b) => a.y - b.y || a.x - b.x || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const placed = new Map<string, PlacedLabel>();
  for (const p of order) {
    const width = p.width ?? p.label.length * charWidth;
    const candidates = slots(p, width, row, r, maxRows);
    const fits = (c: { box: Box }) => inside(c.box, bounds) && !obstacles.some((o) => overlaps(o, c.box)) && !segments.some((s) => crosses(s, c.box));
    const free = candidates.find(fits);
    const chosen = free ?? candidates[0]!;
    const hidden = !free && options.hideUnplaced === true;
    if (!hidden) obstacles.push(chosen.box);
    const box = chosen.box;
    const lineTo = { x: Math.max(box.left, Math.min(p.x, box.right)), y: Math.max(box.top, Math.min(p.y, box.bottom)) };
    placed.set(p.id, { id: p.id, x: box.left, y: (box.top + box.bottom) / 2, leader: chosen.leader, lineTo, hidden });
  }
  return points.map((p) => placed.get(p.id)!);
}

function slots(p: LabelPoint, width: number, row: number, r: number, maxRows: number): { box: Box; leader: boolean }[] {
  const at = (left: number, middle: number, leader: boolean) => ({
    box: { left, top: middle - row / 2, right: left + width, bottom: middle + row / 2 },
    leader,
  });
  const right = p.x + r + GAP;
  const left = p.x - r - GAP - width;
  const out = [
    at(right, p.y, false),
    at(left, p.y, false),
    at(p.x - width / 2, p.y - r - GAP / 2 - row / 2, false),
    at(p.x - width / 2, p.y + r + GAP / 2 + row / 2, false),
  ];
  for (const side of [right + GAP, left - GAP]) {
    for (let k = 1; k <= maxRows; k++) out.push(at(side, p.y + k * row, true), at(side, p.y - k * row, true));
  }
  return out;
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** Whether a line segment passes through a box (Liang–Barsky clipping). */
export function crosses(s: Segment, box: Box): boolean {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  let t0 = 0;
  let t1 = 1;
  for (const [p, q] of [
    [-dx, s.x1 - box.left],
    [dx, box.right - s.x1],
    [-dy, s.y1 - box.top],
    [dy, box.bottom - s.y1],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

function inside(box: Box, bounds: Box): boolean {
  return box.left >= bounds.left && box.right <= bounds.right && box.top >= bounds.top && box.bottom <= bounds.bottom;
}
