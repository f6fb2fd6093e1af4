import type { Metadata } from "next";
import { UploadPanel } from "@/components/trace/upload/upload-panel";
import { FORMAT_IDS } from "@/lib/trace/model";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getRedactionSettings, rulesOf } from "@/server/settings/redaction-settings";
import { describeBytes, maxUploadBytes } from "@/server/trace/import/upload-limits";

export const metadata: Metadata = { title: "Upload" };

/**
 * Upload trace files from the browser (reviewers and admins). The admin's redaction rules go to the
 * page so each picked file is previewed with the rules the upload will run, before anything is sent.
 */
export default async function UploadPage() {
  await requireUser("reviewer");
  const maxBytes = maxUploadBytes();
  const rules = rulesOf(await getRedactionSettings(getDb()));
  return (
    <>
      <div className="page-header">
        <h1>Upload traces</h1>
        <p>
          Each file is first checked for secrets in your browser: you see what will be redacted, then upload. Files are detected, validated and imported one by
          one; a file with errors is refused whole and nothing of it is kept.
        </p>
      </div>
      <UploadPanel formats={FORMAT_IDS} maxBytes={maxBytes} maxLabel={describeBytes(maxBytes)} rules={rules} />
    </>
  );
}
