import type { ContextIndex } from "../../compaction/context/objects";
import type { Session } from "../../trace/model";
import { replayCuts, type ReplayCutOptions } from "../cuts/cut-protocol";
import { toolPressure } from "../cuts/tool-pressure";
import { sessionWorkload, type Workload } from "./workload";

/**
 * Everything suite selection reads about one session, as plain JSON: the saved filter's fields
 * (format, models, tools, workload, length), the replay cut count and the Hard Set's ranking
 * inputs. The CLI computes it from the parsed session; the studio caches it per stored session
 * (server/evaluation/session-summaries.ts), so creating a run or counting a filter's sessions reads
 * these small records instead of parsing every trace. One summary is valid for one tokenizer.
 */
export interface SessionSummary {
  /** The id the suite returns (the trace's id in the CLI, TraceSession.id in the studio). */
  id: string;
  format: string;
  models: string[];
  /** Tool names of the session's tool results, normalised and as the trace wrote them, lower case, distinct. */
  tools: string[];
  messages: number;
  /** Session tokens (the last prefix's) with the summary's tokenizer. */
  tokens: number;
  nativeCompactions: number;
  workload: Workload;
  /** Tool results (function objects). */
  toolResults: number;
  /** Replay cuts of the protocol (default shares, natives included). */
  cuts: number;
  /** Median tool-result share of the prefix over the cuts (lib/evaluation/cuts/tool-pressure). */
  sustainedPressure: number;
}

/**
 * Bump when anything a summary holds is computed differently (the cut protocol, the workload
 * classes, tool-name normalisation): cached summaries of another version are recomputed.
 */
export const SESSION_SUMMARY_VERSION = 1;

/** Linear in the session: one pass for the cuts, one over the objects. */
export function summarizeSession(session: Session, index: ContextIndex, cutOptions: ReplayCutOptions = {}): SessionSummary {
  const tools = new Set<string>();
  let toolResults = 0;
  for (const object of index.objects) {
    if (object.kind !== "function") continue;
    toolResults++;
    if (object.tool) tools.add(object.tool.toLowerCase());
    if (object.rawTool) tools.add(object.rawTool.toLowerCase());
  }
  return {
    id: session.id,
    format: session.format,
    models: [...session.models],
    tools: [...tools].sort(),
    messages: session.messages.length,
    tokens: index.prefixTokens.at(-1) ?? 0,
    nativeCompactions: session.compactions.length,
    workload: sessionWorkload(index).workload,
    toolResults,
    cuts: replayCuts(session, index, cutOptions).length,
    sustainedPressure: toolPressure(session, index, cutOptions).sustained,
  };
}
