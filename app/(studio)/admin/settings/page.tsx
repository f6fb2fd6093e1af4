import type { Metadata } from "next";
import Link from "next/link";
import { LlmSettingsForm, type LlmSlotInfo } from "@/components/admin/llm-settings-form";
import { RedactionSettingsForm } from "@/components/admin/redaction-settings-form";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { LLM_PROVIDERS, PROVIDER_LABELS } from "@/server/llm/config";
import { envLlmSummary } from "@/server/llm/effective-config";
import { LLM_SLOTS, SLOT_LABELS, type LlmSlot } from "@/server/llm/slots";
import { getLlmSettingsView } from "@/server/llm/stored-settings";
import { getRedactionSettings } from "@/server/settings/redaction-settings";
import { processEnv } from "@/server/env";

export const metadata: Metadata = { title: "Settings" };

const PROVIDERS = LLM_PROVIDERS.map((value) => ({ value, label: PROVIDER_LABELS[value] }));

const DESCRIPTIONS: Record<LlmSlot, string> = {
  default: "Used by the LLM planner, summaries and the LLM judges unless a purpose below has its own endpoint.",
  planner: "The Self-GC planner (planner=llm). Empty: the default endpoint plans.",
  summarizer: "LLM summaries and the self-compact rubric. Empty: the default endpoint summarizes.",
  judge: "The LLM no-impact judge. A model other than the planner's avoids a judge grading its own plans. Empty: the default endpoint judges.",
  "ab-judge": "The A/B judge comparing two policies. Empty: the default endpoint compares.",
};

/** Admin: studio-wide settings (how uploads are redacted; the LLM endpoints, one per purpose, and their keys). */
export default async function AdminSettingsPage() {
  await requireUser("admin");
  const db = getDb();
  const settings = await getRedactionSettings(db);
  const views = await Promise.all(LLM_SLOTS.map((slot) => getLlmSettingsView(db, processEnv(), slot)));
  const envOverride = envLlmSummary();
  return (
    <>
      <div className="page-header">
        <h1>Settings</h1>
        <p>
          Secrets in uploaded traces are always redacted before anything is stored. <Link href="/admin/users">Users</Link>
        </p>
      </div>
      <div className="stack">
        <RedactionSettingsForm initial={settings} />
        {LLM_SLOTS.map((slot, i) => {
          const info: LlmSlotInfo = { slot, title: SLOT_LABELS[slot], description: DESCRIPTIONS[slot] };
          return <LlmSettingsForm key={slot} info={info} providers={PROVIDERS} initial={views[i]} envOverride={envOverride} />;
        })}
      </div>
    </>
  );
}
