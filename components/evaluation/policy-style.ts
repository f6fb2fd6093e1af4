/**
 * The colour and marker shape of each policy on the run page (chart points, curves, legend): keyed
 * by the policy's position in the run's order, so a policy keeps its look while the run fills in,
 * and two policies never share a colour–shape pair (ten colours × seven shapes). Colours are the
 * Tableau 10 palette, distinguishable for the common colour-vision deficiencies; the shape tells
 * policies apart where colour does not.
 */
export const POLICY_COLORS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"] as const;
export const POLICY_SHAPES = ["circle", "square", "triangle", "diamond", "star", "wye", "cross"] as const;
export type PolicyShape = (typeof POLICY_SHAPES)[number];

export interface PolicyStyle {
  color: string;
  shape: PolicyShape;
}

/** The style of the policy at `index` of the run's order. */
export function policyStyle(index: number): PolicyStyle {
  const i = Math.max(0, index);
  return { color: POLICY_COLORS[i % POLICY_COLORS.length]!, shape: POLICY_SHAPES[(i + Math.floor(i / POLICY_COLORS.length)) % POLICY_SHAPES.length]! };
}

/** Styles by policy id for a run's policy order. */
export function policyStyles(order: readonly string[]): Map<string, PolicyStyle> {
  return new Map(order.map((id, i) => [id, policyStyle(i)]));
}
