import { readFileSync } from "node:fs";
import { inspectLogFromEvalZip } from "../../../lib/trace/archive/inspect-eval-archive";
import { join, resolve } from "node:path";
import type { FormatId } from "../../../lib/trace/model";
import { readManifest } from "../traces";
import { readNewManifest } from "../traces-new";

/** One valid input the fuzzer mutates: a real trace (shrunk when large) or a repo fixture. */
export interface Seed {
  format: FormatId;
  /** File name given to the importer (detection and subagent paths read it). */
  name: string;
  text: string;
}

/** Seeds above this size are shrunk so thousands of cases fit in the unit test budget. */
const MAX_SEED_BYTES = 40 * 1024;
const FIXTURES = resolve(__dirname, "../../fixtures");

/** Fixture files for the formats ../shared/traces has no real files of (invalid ones excluded). */
const FIXTURE_SEEDS: [FormatId, string][] = [
  ["codex_rollout_jsonl", "codex/rollout-sample.jsonl"],
  ["openai_chat", "openai-chat/messages-array.json"],
  ["openai_chat", "openai-chat/request-with-response.json"],
  ["openai_chat", "openai-chat/sessions.jsonl"],
  ["openai_responses", "openai-responses/items-array.json"],
  ["openai_responses", "openai-responses/request-response.json"],
  ["openai_responses", "openai-responses/exchanges.jsonl"],
  ["anthropic_messages", "anthropic-messages/pair.json"],
  ["anthropic_messages", "anthropic-messages/request.json"],
  ["anthropic_messages", "anthropic-messages/exchanges.jsonl"],
  ["tracefold_jsonl", "tracefold-jsonl/two-sessions.tracefold.jsonl"],
  ["otel_genai_spans", "otel/event-style.json"],
  ["otel_genai_spans", "otel/semconv-parts-otlp.json"],
  ["aider_chat_md", "aider/sample.aider.chat.history.md"],
];

let cached: Seed[] | undefined;

/**
 * Every seed, real traces first (../shared/traces, then the imported files of traces-new), in a
 * stable order (a fuzz seed must replay the same cases).
 */
export function loadSeeds(): Seed[] {
  cached ??= [
    ...[...readManifest(), ...readNewManifest()].map((entry) => ({
      format: entry.format as FormatId,
      name: entry.path,
      text: shrinkTrace(entry.format as FormatId, seedText(entry.absolutePath), entry.path),
    })),
    ...FIXTURE_SEEDS.map(([format, path]) => ({ format, name: path, text: readFileSync(join(FIXTURES, path), "utf8") })),
  ];
  return cached;
}

/** A file's text; an Inspect `.eval` (a zip) as the JSON log it expands to, the text its importer reads. */
function seedText(path: string): string {
  if (!path.endsWith(".eval")) return readFileSync(path, "utf8");
  return inspectLogFromEvalZip(path, new Uint8Array(readFileSync(path)), { maxExpandedBytes: 64 << 20, maxRatio: 1000, ratioFloorBytes: 64 << 20 });
}

/** Real traces at full size (for the few cases that must see a whole file). */
export function realTraceFiles(): { format: FormatId; name: string; path: string }[] {
  return [...readManifest(), ...readNewManifest()].map((e) => ({ format: e.format as FormatId, name: e.path, path: e.absolutePath }));
}

/**
 * Makes a large trace small while keeping its structure: JSON documents keep the first 6 items of
 * every array and 2,000 characters of every string (re-serialised with 2-space indents like the
 * originals), JSONL keeps its first 30 records shrunk the same way, Markdown its first lines.
 */
export function shrinkTrace(format: FormatId, text: string, name = ""): string {
  if (text.length <= MAX_SEED_BYTES) return text;
  if (format === "aider_chat_md") return text.slice(0, text.lastIndexOf("\n", MAX_SEED_BYTES) + 1);
  if (format.endsWith("_jsonl") || /\.jsonl$/i.test(name)) {
    return (
      text
        .split("\n")
        .filter(Boolean)
        .slice(0, 30)
        .map((line) => JSON.stringify(shrinkValue(JSON.parse(line))))
        .join("\n") + "\n"
    );
  }
  return JSON.stringify(shrinkValue(JSON.parse(text)), null, 2) + "\n";
}

function shrinkValue(value: unknown): unknown {
  if (typeof value === "string") return value.length > 2000 ? value.slice(0, 2000) : value;
  if (Array.isArray(value)) return value.slice(0, 6).map(shrinkValue);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrinkValue(v)]));
  return value;
}

/** Sanity list for the reporter: how many seeds each format has. */
export function seedCounts(seeds: Seed[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const seed of seeds) counts[seed.format] = (counts[seed.format] ?? 0) + 1;
  return counts;
}
