import { isUserRequest } from "./requests";
import type { Message } from "../../trace/model";
import { isNativeSummary } from "./part-texts";
import type { PartRef } from "./types";

/**
 * User constraints and corrections (seed 000, Table 7 behavioral contract: "preserve a user's 'do
 * not replace the table header' correction"). A constraint is a sentence of a real user request in
 * the prefix — never the agent's own prose — that contains one of the constraint keywords and
 * directs rather than states ("I don't have the ID" and questions are not constraints); its value
 * is the sentence itself, and it is satisfied only when that exact sentence is visible.
 *
 * A constraint is *used* by the future when a future assistant step shares one of its content
 * words (≥ 5 letters, not a stopword or keyword) — the future continues the task it constrains.
 * That keeps "don't forget to be nice" from binding a session about something else, at the cost
 * of missing constraints phrased entirely in stopwords.
 */
export const CONSTRAINT_KEYWORDS_RE = /\b(?:do not|don't|don’t|dont|never|always|must|instead|keep|without)\b/i;
/**
 * Sentences with a keyword that state a fact rather than direct the agent: "I don't have the
 * reservation ID handy", "I don't know", "do not mind" — and questions, which ask rather than bind.
 */
const NOT_A_CONSTRAINT_RE = /\b(?:do not|don't|don’t|dont|never) (?:have|know|think|understand|see|remember|recall|care|mind|own|believe|expect)\b/i;
const QUESTION_RE = /\?["')\]]*$/;
const HARNESS_TEXT_RE = /^\s*(?:<[a-z-]+>|\[Request interrupted|Caveat: )/i;

export interface ConstraintSentence {
  sentence: string;
  at: PartRef;
  /** Lower-cased content words; the future uses the constraint when it shares one. */
  words: string[];
}

export function findConstraints(messages: readonly Message[], cut: number): ConstraintSentence[] {
  const found: ConstraintSentence[] = [];
  const seen = new Set<string>();
  for (let m = 0; m < cut; m++) {
    const message = messages[m]!;
    if (!isUserRequest(message) || message.meta?.meta === true || isNativeSummary(message)) continue;
    message.parts.forEach((part, p) => {
      if (part.type !== "text" || HARNESS_TEXT_RE.test(part.text)) return;
      for (const raw of part.text.split(/(?<=[.!?])\s+|\n+/)) {
        const sentence = raw.trim();
        if (sentence.length < 12 || sentence.length > 300 || seen.has(sentence)) continue;
        if (!CONSTRAINT_KEYWORDS_RE.test(sentence) || NOT_A_CONSTRAINT_RE.test(sentence) || QUESTION_RE.test(sentence)) continue;
        const words = contentWords(sentence);
        if (words.length === 0) continue;
        seen.add(sentence);
        found.push({ sentence, at: { message: m, part: p }, words });
      }
    });
  }
  return found;
}

/** Lower-cased words of ≥ 5 letters that are not stopwords, deduplicated. */
export function contentWords(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z][A-Za-z-]{4,}/g)) {
    const word = m[0].toLowerCase().replace(/-+$/, "");
    if (word.length >= 5 && !STOPWORDS.has(word)) out.add(word);
  }
  return [...out];
}

const STOPWORDS = new Set(
  (
    "about above after again against always among another anything around because before being below between both " +
    "cannot could doing don't during either every everything first following further given going having instead " +
    "itself later least maybe might minute never nothing other others please rather really right should since " +
    "something still thank thanks their there these thing things think those though through under until using " +
    "where whether which while would without yours yourself always keeps keeping never make makes sure first " +
    "again whole exactly just like want wants need needs also only then when what with from into that this they " +
    "have will your them were been does done must shall okay great start stop"
  ).split(/\s+/),
);
