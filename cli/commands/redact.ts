import { DEFAULT_RULES, isSecretKind, compileAllowList, redactOptionsOf, SECRET_KINDS, type SecretKind } from "@/lib/redact";
import { listTraceFiles } from "@/server/trace/files/list-trace-files";
import { scanFileSecrets } from "@/server/trace/import/redact-upload-file";
import { parseCommandArgs, UsageError } from "../args";
import { redactCommand } from "../usage";

/** The `redact --dry-run --json` contract: exactly one object, one entry per file, never a secret. */
export interface RedactFileReport {
  path: string;
  findings: { kind: string; line: number; fingerprint: string }[];
}

/**
 * Lists what uploads and `tracefold import` would redact from files, with the same rules and the
 * same defaults (every rule but e-mail, nothing allowed; the flags mirror the admin's settings), and
 * changes nothing. Exit 0 when nothing would be redacted, 1 when something would, 2 on a bad
 * command line (in-place redaction is not offered, so --dry-run is required).
 */
export async function runRedact(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, redactCommand);
  if (!values["dry-run"]) {
    throw new UsageError(
      "in-place redaction is not offered: add --dry-run to list what would be redacted (uploads and `tracefold import` redact on the way in, the original file is never changed)",
    );
  }
  if (positionals.length === 0) throw new UsageError("redact needs at least one file or directory");
  const disabled = values.disable
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  const unknown = disabled.filter((k) => !isSecretKind(k));
  if (unknown.length > 0) throw new UsageError(`unknown --disable ${unknown.join(", ")}; expected one of ${SECRET_KINDS.map((k) => k.kind).join(", ")}`);
  const { issues } = compileAllowList(values.allow);
  if (issues.length > 0) throw new UsageError(issues.map((i) => `--allow #${i.entry} ${i.message}`).join("; "));
  const options = redactOptionsOf({ ...DEFAULT_RULES, emails: values.emails, disabled: disabled as SecretKind[], allow: values.allow });

  const reports: RedactFileReport[] = [];
  for (const path of await listTraceFiles(positionals)) {
    const findings = (await scanFileSecrets(path, options)).map(({ kind, line, fingerprint }) => ({ kind, line, fingerprint }));
    reports.push({ path, findings });
    if (!values.json) printHuman({ path, findings });
  }
  if (values.json) process.stdout.write(`${JSON.stringify({ files: reports })}\n`);
  else {
    const total = reports.reduce((n, r) => n + r.findings.length, 0);
    console.log(
      `${total} ${total === 1 ? "secret" : "secrets"} would be redacted in ${reports.filter((r) => r.findings.length > 0).length} of ${reports.length} files (dry run: nothing changed)`,
    );
  }
  return reports.every((r) => r.findings.length === 0) ? 0 : 1;
}

function printHuman(report: RedactFileReport): void {
  const n = report.findings.length;
  console.log(`${n === 0 ? "ok   " : "found"} ${report.path}: ${n === 0 ? "nothing to redact" : `${n} ${n === 1 ? "secret" : "secrets"}`}`);
  if (n === 0) return;
  const width = Math.max(4, ...report.findings.map((f) => String(f.line).length));
  console.log(`    ${"line".padStart(width)}  ${"kind".padEnd(19)}  fingerprint`);
  for (const f of report.findings) console.log(`    ${String(f.line).padStart(width)}  ${f.kind.padEnd(19)}  ${f.fingerprint}`);
}
