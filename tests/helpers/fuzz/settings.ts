import type fc from "fast-check";

/**
 * One seed for every fuzz property, printed with each run so a failure replays exactly:
 * `FUZZ_SEED=<seed> node --import tsx --test tests/unit/fuzz/<file>.test.ts`. `FUZZ_RUNS_SCALE`
 * multiplies every run count (0.1 for a quick look, 10 for a long soak).
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const SCALE = Number(process.env.FUZZ_RUNS_SCALE ?? 1);

/** fast-check parameters: the seed, scaled runs, and a failure report that names the seed. */
export function fuzzParams<T>(numRuns: number): fc.Parameters<T> {
  return {
    seed: FUZZ_SEED,
    numRuns: Math.max(1, Math.round(numRuns * SCALE)),
    endOnFailure: true,
    reporter: (details) => {
      if (!details.failed) return;
      const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      throw new Error(
        `fuzz property failed after ${details.numRuns} cases (seed ${details.seed}, path ${details.counterexamplePath}); ` +
          `replay with FUZZ_SEED=${details.seed}\ncounterexample: ${JSON.stringify(details.counterexample)?.slice(0, 2000)}\n${error}`,
      );
    },
  };
}
