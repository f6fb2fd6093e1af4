import fc from "fast-check";
import { test } from "node:test";
import { FORMAT_IDS } from "../../../lib/trace/model";
import { checkParse, stats } from "../../helpers/fuzz/check-parse";
import { GENERATORS } from "../../helpers/fuzz/generators";
import { FUZZ_SEED, fuzzParams } from "../../helpers/fuzz/settings";

/**
 * Generated traces per format: records with the fields each importer reads, mostly plausible and
 * sometimes odd. Every case goes through `checkParse` (only located issues, model invariants,
 * under 2 s); the file is well-formed JSON, so the importer must return a result, not refuse it.
 */
const RUNS_PER_FORMAT = 300;

for (const format of FORMAT_IDS) {
  test(`generated ${format} traces keep the importer contract (seed ${FUZZ_SEED}, ${RUNS_PER_FORMAT} cases)`, { timeout: 120_000 }, async () => {
    const before = stats.cases;
    await fc.assert(
      fc.asyncProperty(GENERATORS[format], async ({ name, text }) => {
        const { result } = await checkParse(name, text, format);
        if (!result) throw new Error("a well-formed UTF-8 file was refused by the source");
        if (result.format !== format) throw new Error(`result says ${result.format}`);
      }),
      fuzzParams(RUNS_PER_FORMAT),
    );
    console.log(`generated ${format}: ${stats.cases - before} cases, slowest so far ${stats.slowestMs.toFixed(0)} ms`);
  });
}
