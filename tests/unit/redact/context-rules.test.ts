import assert from "node:assert/strict";
import { test } from "node:test";
import { applySpans, findSecrets } from "../../../lib/redact";

/*
 * url_password and password_assignment need context: a URL password only in scheme://user:pass@host,
 * an assignment only for a password-like key and a literal value that is not code. The first cases
 * are the false positives users hit (issue 17): JSON from an Aider history read as 54 URL passwords,
 * and Elixir source in a Claude Code session read as an assigned token.
 */

/** Must stay exactly as they are. */
const ORDINARY: [string, string][] = [
  [
    "JSON-LD in an Aider history",
    '{"@context":"https://schema.org","name":"RelayGPU","url":"https://relaygpu.com","logo":{"@type":"ImageObject","url":"https://relaygpu.com/logo.png"}}',
  ],
  ["the same JSON escaped in a JSONL line", '{"content":"{\\"url\\":\\"https://relaygpu.com\\",\\"logo\\":{\\"@type\\":\\"ImageObject\\"}}"}'],
  ["Elixir token minting", "    token = Base.url_encode64(:crypto.strong_rand_bytes(24), padding: false)"],
  [
    "the Elixir line inside a Claude Code tool result",
    '{"type":"tool_result","content":"  def mint(project_id) do\\n    token = Base.url_encode64(:crypto.strong_rand_bytes(24), padding: false)\\n  end"}',
  ],
  ["a sentinel string", "        env.CODEMIE_API_KEY = 'proxy-handled';"],
  ["a concatenation", "      const apiKey = 'sk-ant-' + 'a'.repeat(95);"],
  [
    "test values",
    "createEnv({ CODEMIE_PROVIDER: 'litellm', CODEMIE_API_KEY: 'test-key' }); createEnv({ CODEMIE_API_KEY: 'my-key' }); createEnv({ CODEMIE_API_KEY: 'sk-secret' })",
  ],
  ["an env lookup (JS)", "  apiKey: process.env.OPENAI_API_KEY,"],
  ["an env lookup (Python)", 'token = os.environ["GITHUB_TOKEN"]'],
  ["an env call (Python)", 'password = os.getenv("DB_PASSWORD")'],
  ["an env call (Ruby)", 'secret = ENV.fetch("SECRET_KEY_BASE")'],
  ["a GitHub Actions expression", "          token: ${{ secrets.GITHUB_TOKEN }}"],
  ["a Jinja placeholder", 'password: "{{ vault_db_password }}"'],
  ["an angle-bracket placeholder", 'api_key = "<YOUR_API_KEY>"'],
  ["a shell variable", 'TOKEN="$GITHUB_TOKEN"'],
  ["an index", "token = tokens[0]"],
  ["a form field", "password = request.form['password']"],
  ["a call", "token = secrets.token_hex(16)"],
  ["a member chain with a digit", "secret = settings.secret_v2"],
  ["a working directory in an env dump", "PWD=/home/user/project"],
  ["a count", '{"token": 4096, "max_tokens": 100}'],
  ["a type annotation", "  token: string;"],
  ["a schema", "  password: z.string().min(8),"],
  ["a masked value", 'token: "sk-****************"'],
  ["a placeholder word", "postgres://user:password@localhost/app"],
  ["a URL without a user", "https://:secretvalue1@example.com/"],
  ["a URL whose @ is not before a host", "https://a.io/x:y@/z"],
  ["an scp-like git remote", "git@github.com:codemie-ai/codemie-code.git"],
  ["a Django test password", "username='testclient', password='password', email='testclient@example.com'"],
  ["a boolean", '{"secret": false, "api_key": null}'],
  ["prose", "The token: it expires after an hour; set the password: see the docs."],
  ["an f-string", 'token = f"{prefix}-{suffix}"'],
];

/** Must be redacted: [input, expected output]. Secrets are synthetic. */
const SECRETS: [string, string][] = [
  ["postgres://admin:s3cr3t!@db.example.com:5432/app", "postgres://admin:[REDACTED:url_password]@db.example.com:5432/app"],
  ["redis://default:a1b2c3d4e5@redis-12345.cloud.example.com:12345", "redis://default:[REDACTED:url_password]@redis-12345.cloud.example.com:12345"],
  ['"url":"mysql://root:Sup3r-S3cret@10.0.0.5:3306/app"', '"url":"mysql://root:[REDACTED:url_password]@10.0.0.5:3306/app"'],
  ["DB_PASSWORD=hunter2", "DB_PASSWORD=[REDACTED:password_assignment]"],
  ["PGPASSWORD=hunter2 psql -h db", "PGPASSWORD=[REDACTED:password_assignment] psql -h db"],
  ["password: hunter2", "password: [REDACTED:password_assignment]"],
  ['{"password": "correct horse"}', '{"password": "[REDACTED:password_assignment]"}'],
  ["curl 'https://x.io/api?token=abc123def&x=1'", "curl 'https://x.io/api?token=[REDACTED:password_assignment]&x=1'"],
  ["export API_KEY=a8f5f167f44f4964e6c998dee827110c", "export API_KEY=[REDACTED:password_assignment]"],
  ['const apiKey = "9f86d081884c7d659a2feaa0c55ad015";', 'const apiKey = "[REDACTED:password_assignment]";'],
  ['client_secret: "GOCSPX-1a2B3c4D5e6F7g8H9i0J"', 'client_secret: "[REDACTED:password_assignment]"'],
  ['password := "hunter22"', 'password := "[REDACTED:password_assignment]"'],
  ['{"content":"settings.py:\\n  PASSWORD = \\"s3cr3t-Pa55\\"\\n"}', '{"content":"settings.py:\\n  PASSWORD = \\"[REDACTED:password_assignment]\\"\\n"}'],
  ['{"content":"{\\"access_token\\":\\"ya29a0AfH6SMBx3kR9zQ\\"}"}', '{"content":"{\\"access_token\\":\\"[REDACTED:password_assignment]\\"}"}'],
  ["secret_key = 'Zx9!kq2LmP0w'", "secret_key = '[REDACTED:password_assignment]'"],
];

for (const [name, input] of ORDINARY) {
  test(`leaves ordinary data alone: ${name}`, () => {
    assert.deepEqual(
      findSecrets(input).map((s) => `${s.kind} ${input.slice(s.start, s.end)}`),
      [],
    );
  });
}

for (const [input, expected] of SECRETS) {
  test(`still redacts: ${input.slice(0, 60)}`, () => {
    assert.equal(applySpans(input, findSecrets(input)), expected);
  });
}

test("54 JSON objects with URLs on one line give no URL password (the Aider history's count)", () => {
  const line = Array.from({ length: 54 }, (_, i) => `{"url":"https://site${i}.example","logo":{"@type":"ImageObject"}}`).join(",");
  assert.deepEqual(findSecrets(`[${line}]`), []);
});
