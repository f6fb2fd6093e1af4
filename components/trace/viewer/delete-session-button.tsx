"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { deleteSessionAction } from "@/app/_actions/sessions";
import { plural } from "@/lib/util/plural";

/**
 * Admin: deletes the session after a confirmation that says what goes — the session, its replays'
 * sidecars and, when it is the file's only session, the uploaded file — then returns to the traces
 * table. A refusal (a job still reads the session) shows beside the button.
 */
export function DeleteSessionButton({ sessionId, fileName, sessionsInUpload }: { sessionId: string; fileName: string; sessionsInUpload: number }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const onClick = () => {
    const what =
      sessionsInUpload <= 1
        ? `Delete this session and its uploaded file ${fileName}? Its replays' sidecars go too; evaluation results that used it are kept.`
        : `Delete this session? ${fileName} holds ${plural(sessionsInUpload - 1, "other session")} and stays (its stored file still contains this session's text: delete them all to erase it).`;
    if (!window.confirm(what)) return;
    start(async () => {
      const result = await deleteSessionAction(sessionId);
      if (!result.ok) setError(result.message);
      else router.push("/traces");
    });
  };
  return (
    <span className="row">
      <button type="button" className="btn btn-sm btn-danger" onClick={onClick} disabled={pending}>
        {pending ? "Deleting…" : "Delete session"}
      </button>
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
