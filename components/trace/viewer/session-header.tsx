import Link from "next/link";
import { CompactLink } from "./compact-link";
import { Fragment, type ReactNode } from "react";
import { formatDateTime } from "@/lib/util/format-date-time";
import { plural } from "@/lib/util/plural";
import type { SessionOverview } from "@/server/trace/session/types";
import { DeleteSessionButton } from "./delete-session-button";
import { SessionExportLinks } from "./session-export-links";
import { withRedactionMarkers } from "./redaction-marker";
import styles from "./session-header.module.css";

const fmt = (value: number) => value.toLocaleString("en-US");

/** Title and the session's facts: format, models, counts, estimated vs provider-reported tokens. */
export function SessionHeader({ overview, deletion }: { overview: SessionOverview; deletion?: { sessionsInUpload: number } }) {
  const functionObjects = overview.objects.filter((o) => o.kind === "function").length;
  return (
    <header className={styles.header} data-testid="session-header">
      <nav className={styles.crumbs} aria-label="Breadcrumb">
        <Link href="/traces">Traces</Link>
        <span aria-hidden="true">/</span>
        <span className={styles.crumbFile} title={overview.fileName}>
          {overview.fileName}
        </span>
      </nav>
      <div className={styles.titleRow}>
        <h1 className={styles.title} title={overview.title}>
          {overview.title ? withRedactionMarkers(overview.title, (segment, key) => <Fragment key={key}>{segment}</Fragment>) : overview.externalId}
        </h1>
        {overview.messageCount > 0 ? (
          <CompactLink sessionId={overview.id} />
        ) : (
          <span className="pill" data-testid="empty-session">
            empty session · nothing to replay
          </span>
        )}
        {deletion ? <DeleteSessionButton sessionId={overview.id} fileName={overview.fileName} sessionsInUpload={deletion.sessionsInUpload} /> : null}
      </div>
      <dl className={styles.facts}>
        <Fact label="Format">
          <span className="pill">{overview.format}</span>
        </Fact>
        <Fact label={overview.models.length > 1 ? "Models" : "Model"}>
          {overview.models.length > 0 ? (
            overview.models.map((m) => (
              <span key={m} className="pill">
                {m}
              </span>
            ))
          ) : (
            <span className="faint">unknown</span>
          )}
        </Fact>
        <Fact label="Messages">{fmt(overview.messageCount)}</Fact>
        <Fact label="Tool calls">
          {fmt(overview.toolCalls)}
          <span className="faint"> / {plural(overview.toolResults, "result")}</span>
        </Fact>
        <Fact label="Objects">
          {fmt(overview.objects.length)}
          <span className="faint"> ({plural(overview.objects.length - functionObjects, "request")})</span>
        </Fact>
        <Fact label="Compactions">
          {fmt(overview.compactions.length)}
          {overview.compactions.map((c, j) => (
            <a key={j} href={`#compaction-${j}`} className={styles.factLink} title={`${c.kind}${c.trigger ? `, trigger ${c.trigger}` : ""}`}>
              before #{c.beforeMessage}
            </a>
          ))}
        </Fact>
        <Fact label="Tokens (est.)">
          <span data-testid="session-tokens">{fmt(overview.tokens)}</span>
          {overview.providerInputTokens !== undefined ? (
            <span className={styles.provider} title="the largest prompt the provider reported (input + cached + cache-write tokens of one call)">
              provider input {fmt(overview.providerInputTokens)}
            </span>
          ) : null}
        </Fact>
        <Fact label="Tokenizer">
          <span className="mono">{overview.tokenizer}</span>
        </Fact>
        <Fact label="Export">
          <SessionExportLinks sessionId={overview.id} />
        </Fact>
        {overview.startedAt ? (
          <Fact label="Started">
            <span className="mono">{formatDateTime(overview.startedAt, { seconds: true })}</span>
          </Fact>
        ) : null}
      </dl>
    </header>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.fact}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
