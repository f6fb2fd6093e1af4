/**
 * Places point labels on a scatter chart so they do not overlap each other or other points
 * (policies cluster: tool-prune, tool-mask-prune and hybrid sit within a few percent). Pure and
 * deterministic: the same points give the same layout, whatever order they arrive in.
 *
 * Greedy, in a fixed order (top to bottom, then left to right, then id): each label takes the
 * first free slot among right of its point, left, above, below, then stacked rows further down or
 * up on the right and then on the left. A label that left its point's side gets a leader line.
 * When no slot is free it keeps the first one (right) — overlap is then unavoidable at that size.
 */
export interface LabelPoint {
  id: string;
  /** Pixel position of the point. */
  x: number;
  y: number;
  label: string;
}

export interface PlacedLabel {
  id: string;
  /** Text anchor position (start of the text, vertical middle). */
  x: number;
  y: number;
  /** True when the label was moved away from its point: draw a line from the point to `lineTo`. */
  leader: boolean;
  lineTo: { x: number; y: number };
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
}

interface Box {
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
  const obstacles: Box[] = points.map((p) => ({ left: p.x - r, top: p.y - r, right: p.x + r, bottom: p.y + r }));
  const order = [...points].sort((a, b) => a.y - b.y || a.x - b.x || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const placed = new Map<string, PlacedLabel>();
  for (const p of order) {
    const width = p.label.length * charWidth;
    const candidates = slots(p, width, row, r, maxRows);
    const fits = (c: { box: Box }) => inside(c.box, bounds) && !obstacles.some((o) => overlaps(o, c.box));
    const chosen = candidates.find(fits) ?? candidates[0]!;
    obstacles.push(chosen.box);
    const box = chosen.box;
    const lineTo = { x: Math.max(box.left, Math.min(p.x, box.right)), y: Math.max(box.top, Math.min(p.y, box.bottom)) };
    placed.set(p.id, { id: p.id, x: box.left, y: (box.top + box.bottom) / 2, leader: chosen.leader, lineTo });
  }
  return points.map((p) => placed.get(p.id)!);
}

function slots(p: LabelPoint, width: number, row: number, r: number, maxRows: number): { box: Box; leader: boolean }[] {
  const at = (left: number, middle: number, leader: boolean) => ({ box: { left, top: middle - row / 2, right: left + width, bottom: middle + row / 2 }, leader });
  const right = p.x + r + GAP;
  const left = p.x - r - GAP - width;
  const out = [at(right, p.y, false), at(left, p.y, false), at(p.x - width / 2, p.y - r - GAP / 2 - row / 2, false), at(p.x - width / 2, p.y + r + GAP / 2 + row / 2, false)];
  for (const side of [right + GAP, left - GAP]) {
    for (let k = 1; k <= maxRows; k++) out.push(at(side, p.y + k * row, true), at(side, p.y - k * row, true));
  }
  return out;
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

function inside(box: Box, bounds: Box): boolean {
  return box.left >= bounds.left && box.right <= bounds.right && box.top >= bounds.top && box.bottom <= bounds.bottom;
}
