import fc from "fast-check";
import { test } from "node:test";
import { checkParse, stats } from "../../helpers/fuzz/check-parse";
import { applyMutations, mutationArb } from "../../helpers/fuzz/mutations";
import { loadSeeds, seedCounts } from "../../helpers/fuzz/seeds";
import { FUZZ_SEED, fuzzParams } from "../../helpers/fuzz/settings";

/**
 * Mutation fuzzing over every real trace in ../shared/traces (shrunk when large) and the fixtures
 * of the formats it lacks: truncations, line edits, wrong-typed / null / huge / deeply nested
 * values, dropped fields, flipped bytes, invalid UTF-8, BOMs and CRLF, one to four at a time.
 * `checkParse` states the contract every case must keep.
 */
const seeds = loadSeeds();
const RUNS = 6200;

test(`mutated real traces never break the importer contract (seed ${FUZZ_SEED}, ${RUNS} cases)`, { timeout: 300_000 }, async () => {
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), fc.array(mutationArb, { minLength: 1, maxLength: 4 }), async (index, mutations) => {
      const seed = seeds[index]!;
      await checkParse(seed.name, applyMutations(seed.text, mutations, seed.format.endsWith("_jsonl") || seed.name.endsWith(".jsonl")), seed.format);
    }),
    fuzzParams(RUNS),
  );
  console.log(`mutated traces: ${JSON.stringify({ ...stats, seconds: ((performance.now() - started) / 1000).toFixed(1), seeds: seedCounts(seeds) })}`);
});
