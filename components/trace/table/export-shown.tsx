import { plural } from "@/lib/util/plural";

/**
 * Downloads exactly the sessions the traces table shows (its search and filters, every page) as one
 * file: a form post of their ids to `/api/v1/sessions/export` (more ids than a URL holds), answered
 * as an attachment, so the page stays where it is. The export streams; each format reimports.
 */
export function ExportShown({ ids }: { ids: string[] }) {
  if (ids.length === 0) return null;
  const what = plural(ids.length, "session");
  return (
    <form method="post" action="/api/v1/sessions/export" aria-label={`Export the ${what} shown`}>
      <input type="hidden" name="ids" value={ids.join(",")} />
      <span className="faint">Export {what}:</span>{" "}
      <button type="submit" name="as" value="jsonl" className="btn btn-sm" title="Tracefold JSONL: uploads and tracefold import read it back">
        JSONL
      </button>{" "}
      <button type="submit" name="as" value="otlp" className="btn btn-sm" title="OTLP JSON Lines (GenAI conventions): one request per session">
        OTLP
      </button>
    </form>
  );
}
