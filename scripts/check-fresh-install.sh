#!/usr/bin/env bash
# Issue 18: the CLI works right after a plain `npm install` on a fresh clone. Clones this
# repository's committed HEAD into a scratch directory, runs `npm install` there (its postinstall
# generates Prisma's clients), then `tracefold inspect` over every shared trace and `tracefold import`
# into a scratch SQLite database. Prints "fresh install: ok" or what failed; exit 1 on failure.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
traces="${TRACEFOLD_TRACES_DIR:-$root/../shared/traces}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "fresh install: $1" >&2; exit 1; }
git clone -q "$root" "$scratch/repo" || fail "git clone failed"
cd "$scratch/repo"
# Only what npm needs: no node_modules, no generated clients, nothing the README's commands install.
npm install --no-audit --no-fund --prefer-offline >"$scratch/install.log" 2>&1 || { tail -20 "$scratch/install.log" >&2; fail "npm install failed"; }
[ -f generated/prisma-sqlite/client.ts ] || fail "npm install did not generate the Prisma clients (postinstall)"
npx --no-install tracefold inspect "$traces" --json >"$scratch/inspect.json" 2>"$scratch/inspect.err" || { tail -5 "$scratch/inspect.err" >&2; fail "tracefold inspect failed"; }
# One report per file of the shared traces' manifest, each read without an error.
expected=$(($(wc -l <"$traces/MANIFEST.tsv") - 1))
read_ok=$(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); console.log(r.files.filter((f)=>f.errors.length===0).length)' "$scratch/inspect.json") || fail "tracefold inspect printed no JSON report"
[ "$read_ok" -eq "$expected" ] || fail "tracefold inspect read $read_ok files without error; the manifest lists $expected"
first=$(find "$traces" -name '*.md' -path '*aider*' | head -1)
DATABASE_URL="file:$scratch/tracefold.db" npx --no-install tracefold import "$first" >"$scratch/import.log" 2>&1 || { cat "$scratch/import.log" >&2; fail "tracefold import failed"; }
echo "fresh install: ok (inspect read all $expected files of $traces; import wrote a SQLite database)"
