import { fmix32, hashString, seed32 } from "../../scenario/prng";
import type { JudgePacket } from "./packet";

/**
 * The A/B judge packet (seed 000, "A/B judge contract"): two candidates for the same cut and the
 * same real future. Which policy is shown as A is decided by a seeded coin per case, so position
 * bias averages out over a suite and every assignment can be reproduced from (seed, case). The
 * future is shown once; each candidate brings its plan, retained prefix and diff blocks from its
 * single-judge packet (blind: no policy or rule names). Build the two packets with half of the
 * A/B budget each: this text is about the sum of their sizes.
 */
export interface AbSides {
  /** Policy shown as candidate A. */
  A: string;
  /** Policy shown as candidate B. */
  B: string;
  /** True when the second argument's policy was shown as A. */
  swapped: boolean;
}

export interface AbPacket {
  sessionId: string;
  cut: number;
  sides: AbSides;
  text: string;
  /** Object ids each candidate's packet showed. */
  objectIds: { A: string[]; B: string[] };
}

/**
 * The seeded coin. It depends on the seed, the case key and the unordered pair of policies, not
 * on argument order, so comparing (x, y) and (y, x) shows the same policy as A.
 */
export function abSides(seed: number, caseKey: string, first: string, second: string): AbSides {
  if (first === second) throw new RangeError(`an A/B comparison needs two different policies, got ${first} twice`);
  const [low, high] = first < second ? [first, second] : [second, first];
  const heads = (fmix32(seed32(seed) ^ hashString(`${caseKey}\u0000${low}\u0000${high}`)) & 1) === 1;
  const A = heads ? high : low;
  return { A, B: A === first ? second : first, swapped: A !== first };
}

export function buildAbPacket(first: JudgePacket, second: JudgePacket, options: { seed: number; caseKey?: string }): AbPacket {
  if (first.sessionId !== second.sessionId || first.cut !== second.cut) {
    throw new RangeError(`A/B candidates must share the cut: ${first.sessionId}@${first.cut} vs ${second.sessionId}@${second.cut}`);
  }
  if (first.futureEnd !== second.futureEnd || first.sections.future !== second.sections.future) {
    throw new RangeError("A/B candidates must be judged against the same future window (build both packets with the same options)");
  }
  const caseKey = options.caseKey ?? `${first.sessionId}@${first.cut}`;
  const sides = abSides(options.seed, caseKey, first.policy, second.policy);
  const a = sides.swapped ? second : first;
  const b = sides.swapped ? first : second;
  const text = [
    `Session ${first.sessionId}, cut at message ${first.cut}. Two candidate edits of the same prefix, A and B; the real future after the cut is shown once.`,
    "=== REAL FUTURE TURNS: what actually happened after the cut ===",
    first.sections.future,
    ...candidate("A", a),
    ...candidate("B", b),
    "=== END ===",
  ].join("\n\n");
  return { sessionId: first.sessionId, cut: first.cut, sides, text, objectIds: { A: a.objectIds, B: b.objectIds } };
}

function candidate(label: "A" | "B", packet: JudgePacket): string[] {
  const tokens = packet.sections.overview.split("\n")[1] ?? "";
  return [
    `=== CANDIDATE ${label} ===`,
    tokens,
    `--- ${label}: PLAN ---`,
    packet.sections.plan,
    `--- ${label}: RETAINED PREFIX (what the agent would see) ---`,
    packet.sections.prefix,
    `--- ${label}: CONTEXT_PRUNE_DIFF (judge-only: what the edits removed or replaced) ---`,
    packet.sections.diffs,
  ];
}
