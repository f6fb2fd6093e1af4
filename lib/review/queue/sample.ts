import { Rng, fmix32, hashString, seed32 } from "../../scenario/prng";

/**
 * A seeded sample of `size` items, kept in their original (walk) order. A queue creator who wants 40
 * of 863 disagreements gets the same 40 from the same seed on every machine, so a sample can be
 * rebuilt and reported ("sample of 40, seed 123"). Partial Fisher–Yates over the indices with
 * mulberry32 (lib/scenario/prng), seeded by the queue seed mixed with a fixed label so the sample
 * does not correlate with the A/B side coin, which uses the same seed. A size at or above the
 * number of items returns them all.
 */
export function sampleItems<T>(items: readonly T[], size: number, seed: number): T[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`a sample needs a whole number of items of at least 1, got ${size}`);
  if (size >= items.length) return [...items];
  const rng = new Rng(fmix32(seed32(seed) ^ hashString("review-queue-sample")));
  const indices = items.map((_, i) => i);
  for (let i = 0; i < size; i++) {
    const j = rng.int(i, indices.length - 1);
    [indices[i], indices[j]] = [indices[j]!, indices[i]!];
  }
  return indices
    .slice(0, size)
    .sort((a, b) => a - b)
    .map((i) => items[i]!);
}
