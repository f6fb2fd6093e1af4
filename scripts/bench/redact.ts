import { findSecrets } from "../../lib/redact";
import { adversarialInputs } from "../../tests/fixtures/redact-adversarial";
import { round } from "./tokens";

/**
 * Redaction over inputs built to make backtracking regexes go quadratic, at 256 KB and 1 MB, beside
 * plain prose of the same sizes in the same run: linear rules scale ×4 from one size to the other
 * (a quadratic one ×16), and each input's 1 MB time is compared with the prose's.
 */
export function benchRedact() {
  const time = (text: string) => {
    const started = performance.now();
    findSecrets(text, { emails: true });
    return performance.now() - started;
  };
  const prose = (size: number) => "The agent read the file and ran the tests again. ".repeat(Math.ceil(size / 50)).slice(0, size);
  const small = adversarialInputs(256 * 1024);
  const large = adversarialInputs(1024 * 1024);
  const baseline = time(prose(1024 * 1024));
  const rows = Object.keys(small).map((name) => {
    const smallMs = time(small[name]!);
    const largeMs = time(large[name]!);
    return {
      input: name,
      ms256KB: round(smallMs),
      ms1MB: round(largeMs),
      scaling: round(largeMs / Math.max(smallMs, 0.01)),
      vsProse: round(largeMs / baseline),
    };
  });
  return { proseMs1MB: round(baseline), worstScaling: Math.max(...rows.map((r) => r.scaling)), rows };
}
