/**
 * Child process of the import benchmark: parses and indexes one file (tokens excluded: chars/4)
 * and reports its time and peak RSS, so the parent measures memory without its own heap in the way.
 */
import { createAnalyzer } from "../../lib/analysis/analyze";
import { parseTrace } from "../../lib/trace/parse-trace";
import { sourceFromFile } from "../../server/trace/files/file-source";

async function main(): Promise<void> {
  const path = process.argv[2]!;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const baseline = process.memoryUsage().rss;
  const started = performance.now();
  const parsed = await parseTrace(await sourceFromFile(path));
  const analyzer = createAnalyzer({ tokenizer: "chars4" });
  let objects = 0;
  let messages = 0;
  for (const session of parsed.sessions) {
    const { index } = analyzer.analyze(session);
    objects += index.objects.length;
    messages += session.messages.length;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  process.stdout.write(
    JSON.stringify({ seconds, peakRss: peak, baselineRss: baseline, messages, objects, errors: parsed.issues.filter((i) => i.severity === "error").length }),
  );
}

void main();
