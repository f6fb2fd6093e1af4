/**
 * What a tool call did, as far as the planner's rules need it (seed 000, planner contract): which
 * file it read or wrote (editable artifacts, duplicate reads), what "intent" it repeats (failed
 * attempts superseded by a later success), and whether it was a search (obsolete searches).
 * Shell commands are read too, because SWE-style runs read with `cat`/`sed -n` and edit with
 * `sed -i` or here-documents.
 */
export interface CallFacts {
  /** The file or URL the call is about, when there is one. */
  subject?: string;
  /** A file read, keyed with its range so partial reads of one file are told apart. */
  read?: { path: string; range: string };
  /** A file written (`full`: whole body replaced, so earlier bodies are obsolete) or edited. */
  write?: { path: string; full: boolean };
  /** Calls with the same intent retry the same thing (same command head, same file, same URL). */
  intent: string;
  /** The exact command or argument text, for recognising reruns. */
  command: string;
  isSearch: boolean;
}

const PATH_KEYS = ["file_path", "path", "filename", "file", "notebook_path", "target_file"];
const READ_VERBS = new Set(["cat", "head", "tail", "nl", "less", "more", "bat"]);
const SEARCH_VERBS = new Set(["grep", "rg", "find", "ls", "ag", "fd", "tree", "locate"]);
const SEARCH_TOOLS = new Set(["grep", "glob", "web_search"]);

export function describeCall(tool: string, args: string): CallFacts {
  const json = parseObject(args);
  if (tool === "exec") return describeCommand(stringField(json, ["command", "cmd", "code", "input"]) ?? args);
  const path = stringField(json, PATH_KEYS);
  const url = stringField(json, ["url", "uri"]);
  const command = args.replace(/\s+/g, " ").trim();
  if (tool === "read" && path) {
    const range = ["offset", "limit", "view_range", "start_line", "end_line"].map((k) => JSON.stringify(json?.[k] ?? null)).join(",");
    return { subject: path, read: { path, range: range === "null,null,null,null,null" ? "all" : range }, intent: `read ${path}`, command, isSearch: false };
  }
  if ((tool === "write" || tool === "edit") && path) {
    return { subject: path, write: { path, full: tool === "write" }, intent: `${tool} ${path}`, command, isSearch: false };
  }
  const subject = path ?? url ?? stringField(json, ["query", "pattern", "task_id", "id"]);
  return { ...(subject ? { subject } : {}), intent: `${tool} ${subject ?? ""}`.trim(), command, isSearch: SEARCH_TOOLS.has(tool) };
}

/** A shell command: its first meaningful segment (after cd/export) decides what it did. */
export function describeCommand(raw: string): CallFacts {
  const command = raw.replace(/\s+/g, " ").trim();
  const segments = command.split(/\s*(?:&&|\|\||;|\|)\s*/).filter((s) => s && !/^(cd|export|source|set)\b/.test(s));
  const main = segments[0] ?? command;
  const words = main.split(" ");
  const verb = (words[0] ?? "").replace(/^.*\//, "");
  const intent = words.slice(0, verb === "python" || verb === "python3" || verb === "git" || verb === "npm" || verb === "mix" ? 2 : 1).join(" ");
  const redirect = /(?:^|[^>0-9])>\s*([\w./~-]+)/.exec(command)?.[1] ?? /\btee\s+(?:-a\s+)?([\w./~-]+)/.exec(command)?.[1];
  if (/\bsed\s+-i/.test(command) || /\bperl\s+-p?i/.test(command)) {
    const path = lastPathLike(main);
    if (path) return { subject: path, write: { path, full: false }, intent: `edit ${path}`, command, isSearch: false };
  }
  if (redirect && !redirect.startsWith("/dev/"))
    return { subject: redirect, write: { path: redirect, full: true }, intent: `write ${redirect}`, command, isSearch: false };
  const sedRange = /^sed\s+-n\s+['"]?([\d,]+)p/.exec(main)?.[1];
  if (READ_VERBS.has(verb) || sedRange) {
    const path = lastPathLike(main);
    if (path) return { subject: path, read: { path, range: sedRange ?? (verb === "cat" ? "all" : main) }, intent: `read ${path}`, command, isSearch: false };
  }
  return { intent: intent || "exec", command, isSearch: SEARCH_VERBS.has(verb) };
}

function lastPathLike(segment: string): string | undefined {
  const words = segment.split(" ").filter((w) => !w.startsWith("-"));
  for (let i = words.length - 1; i > 0; i--) {
    const w = words[i]!.replace(/^['"]|['"]$/g, "");
    if (/^[\w./~-]+$/.test(w) && (w.includes("/") || /\.[A-Za-z0-9]{1,6}$/.test(w))) return w;
  }
  return undefined;
}

function parseObject(args: string): Record<string, unknown> | undefined {
  if (!args.trimStart().startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(args);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function stringField(json: Record<string, unknown> | undefined, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = json?.[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return undefined;
}
