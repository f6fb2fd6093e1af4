import type { Importer } from "./importer";
import type { FormatId } from "./model";
import { aiderImporter } from "./importers/aider";
import { anthropicMessagesImporter } from "./importers/anthropic-messages";
import { browserUseImporter } from "./importers/browser-use";
import { claudeCodeImporter } from "./importers/claude-code";
import { codexRolloutImporter } from "./importers/codex-rollout";
import { geminiApiContentsImporter } from "./importers/gemini-api-contents";
import { geminiCliChatImporter } from "./importers/gemini-cli-chat";
import { geminiCliStreamJsonImporter } from "./importers/gemini-cli-stream-json";
import { inspectEvalLogImporter } from "./importers/inspect-eval-log";
import { langfuseTraceImporter } from "./importers/langfuse-trace";
import { miniSweAgentImporter } from "./importers/mini-swe-agent";
import { openInferenceImporter } from "./importers/openinference";
import { openLlmetryImporter } from "./importers/openllmetry";
import { openaiChatImporter } from "./importers/openai-chat";
import { openaiResponsesImporter } from "./importers/openai-responses";
import { openhandsImporter } from "./importers/openhands";
import { otelGenaiImporter } from "./importers/otel-genai";
import { sweAgentImporter } from "./importers/swe-agent";
import { tauBenchImporter } from "./importers/tau-bench";
import { tau2Importer } from "./importers/tau2";
import { tracefoldJsonlImporter } from "./importers/tracefold-jsonl";

/** Every importer, in the order ties are broken during detection (most specific first). */
export const IMPORTERS: readonly Importer[] = [
  tracefoldJsonlImporter,
  claudeCodeImporter,
  codexRolloutImporter,
  miniSweAgentImporter,
  sweAgentImporter,
  tauBenchImporter,
  tau2Importer,
  geminiCliChatImporter,
  geminiCliStreamJsonImporter,
  geminiApiContentsImporter,
  browserUseImporter,
  inspectEvalLogImporter,
  langfuseTraceImporter,
  openhandsImporter,
  openInferenceImporter,
  openLlmetryImporter,
  otelGenaiImporter,
  aiderImporter,
  anthropicMessagesImporter,
  openaiResponsesImporter,
  openaiChatImporter,
];

export function importerFor(format: FormatId): Importer {
  const importer = IMPORTERS.find((i) => i.format === format);
  if (!importer) throw new Error(`no importer for format ${format}`);
  return importer;
}
