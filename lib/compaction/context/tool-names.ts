/**
 * Normalises tool names across harnesses so object ids read the same everywhere:
 * `function:read:3` whether the agent called `Read`, `read_file`, `str_replace_editor view` or
 * `file_read`. Unknown tools are lower-cased with non-alphanumerics folded to `_`.
 */
const ALIASES: Record<string, string> = {
  read: "read",
  read_file: "read",
  file_read: "read",
  view: "read",
  cat: "read",
  open: "read",
  notebookread: "read",
  bash: "exec",
  shell: "exec",
  exec: "exec",
  exec_command: "exec",
  execute_bash: "exec",
  execute_command: "exec",
  local_shell: "exec",
  run: "exec",
  run_command: "exec",
  run_shell_command: "exec",
  code_run: "exec",
  python: "exec",
  ipython: "exec",
  execute_ipython_cell: "exec",
  bashoutput: "exec",
  webfetch: "web_fetch",
  web_fetch: "web_fetch",
  fetch: "web_fetch",
  fetch_url: "web_fetch",
  websearch: "web_search",
  web_search: "web_search",
  search_web: "web_search",
  browse: "browser",
  browser: "browser",
  browse_interactive: "browser",
  browser_snapshot: "browser",
  web_scan: "browser",
  web_execute_js: "browser",
  write: "write",
  write_file: "write",
  create: "write",
  create_file: "write",
  edit: "edit",
  multiedit: "edit",
  str_replace: "edit",
  str_replace_editor: "edit",
  edit_file: "edit",
  apply_patch: "edit",
  notebookedit: "edit",
  grep: "grep",
  search_file: "grep",
  search_dir: "grep",
  find_file: "glob",
  glob: "glob",
  ls: "glob",
  list_directory: "glob",
  task: "task",
  agent: "task",
  todowrite: "todo",
};

export function normaliseToolName(name: string): string {
  const folded = foldToolName(name);
  if (!folded) return "tool";
  return ALIASES[folded] ?? folded;
}

/**
 * The raw name folded (lower case, MCP server prefix dropped, non-alphanumerics to `_`) but not
 * aliased: `python` stays `python` where normaliseToolName says `exec`. Empty for a blank name.
 */
export function foldToolName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^mcp__[^_]+__/, "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/**
 * `str_replace_editor` carries its real verb in the arguments (`{"command":"view"}`): view is a
 * read, create a write, everything else an edit.
 */
export function normaliseToolCall(name: string, args: string): string {
  const base = normaliseToolName(name);
  if (name.toLowerCase() !== "str_replace_editor") return base;
  const command = /"command"\s*:\s*"(\w+)"/.exec(args)?.[1];
  if (command === "view") return "read";
  if (command === "create") return "write";
  return "edit";
}
