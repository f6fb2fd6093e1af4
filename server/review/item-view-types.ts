import type { DependencyKind } from "@/lib/evaluation/judge/types";
import type { CutRef, DependencyType, ReviewLabel } from "@/lib/review";
import type { CutEvidence } from "../evaluation/list-run-cuts";
import type { ProjectedMessage } from "../compaction/compaction-api";

/**
 * What the labeling screen receives for one item: plain data, trace content as text (rendered as
 * text by the client, never HTML). A/B items never carry the policy names or the side mapping.
 */
export interface PartText {
  part: number;
  type: string;
  name?: string;
  /** `readableText` of the part (the text dependency spans index into), capped at PART_TEXT_CAP (item-context-build.ts). */
  text: string;
  truncated: boolean;
}

export interface MessageText {
  message: number;
  role: string;
  parts: PartText[];
}

export interface CandidateView {
  id: string;
  value: string;
  kind: DependencyKind;
  /** The reviewer's default type for a confirmation (from the matcher kind). */
  suggestedType: DependencyType;
  plantedAt: { message: number; part: number; objectId?: string };
  usedAt: { message: number; part: number };
}

export interface RemovedPart {
  message: number;
  part: number;
  role: string;
  action: string;
  target?: string;
  text: string;
  truncated: boolean;
}

/** A sidecar a view names: its payload as text (empty and `missing` when the trace no longer rebuilds it). */
export interface SidecarText {
  digest: string;
  objectId: string;
  text: string;
  truncated: boolean;
  missing: boolean;
}

/** The reviewer's own threads on the item: the latest version of each (retracted ones included, for numbering). */
export interface ItemBase {
  itemKey: string;
  ref: CutRef;
  sessionTitle: string;
  mine: ReviewLabel[];
  /** Reviewers (emails) who completed the item so far. */
  completedBy: string[];
  /** Comments on the item, oldest first. */
  comments: { author: string; body: string; createdAt: string }[];
  /** Where the item sits in the queue's order, from 1 ("item k of N"), and the queue's size. */
  position: number;
  total: number;
}

/**
 * A failure item's blind state: `off` (the queue shows the judge's answer at once), `hidden` (a
 * blind queue, and this reviewer has not answered the item yet: the judge's evidence — category,
 * culprit — is not sent at all), `revealed` (they have saved an answer; it stays revealed after an undo).
 */
export type BlindState = "off" | "hidden" | "revealed";

export type ItemView =
  | (ItemBase & { queue: "dependency"; prefix: MessageText[]; prefixStart: number; future: MessageText[]; candidates: CandidateView[] })
  | (ItemBase & {
      queue: "failure_category";
      blind: BlindState;
      policy: string;
      view: ProjectedMessage[];
      removed: RemovedPart[];
      evidence: CutEvidence | null;
      objectIds: string[];
    })
  | (ItemBase & { queue: "ab"; A: ProjectedMessage[]; B: ProjectedMessage[]; future: MessageText[] })
  /** A calibration item: the view and its sidecars beside the real future, blind to the policy and to any judge. */
  | (ItemBase & { queue: "view_verdict"; view: MessageText[]; sidecars: SidecarText[]; future: MessageText[] });
