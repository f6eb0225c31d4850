#!/usr/bin/env bash
# Does exactly what the README says a newcomer does, in a fresh clone: `npm install && npm start`,
# then checks that the first start compiled dist/ and runs it (not tsx), that /healthz answers
# 200 and / the web console, that a second start reuses the data without compiling again, and that Ctrl-C (SIGINT)
# stops the service and its embedded PostgreSQL with no orphaned postgres process.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/platform-readme-XXXXXX)
# mktemp makes a 0700 directory; as root the embedded PostgreSQL runs as the postgres user, which
# must reach the checkout, as it does in an ordinary clone (see README, "Running as root").
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
git clone -q "$src" "$work/platform"
cd "$work/platform"
npm install --no-audit --no-fund >/dev/null

port=$(node -e 'const s=require("net").createServer().listen(0,()=>{console.log(s.address().port);s.close()})')
start_and_stop() {
  PORT=$port setsid npm start >"$work/start-$1.log" 2>&1 &
  local pid=$! i
  # The first start compiles dist/ first (tsc: about a minute on a loaded 2-core machine).
  for i in $(seq 1 300); do
    if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$pid" 2>/dev/null; then echo "readme-start: npm start exited"; cat "$work/start-$1.log"; exit 1; fi
    sleep 1
  done
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || { echo "readme-start: /healthz never answered"; cat "$work/start-$1.log"; exit 1; }
  # The web console is built with the service and served at /.
  curl -fsS "http://127.0.0.1:$port/" | grep -q '<div id="root">' || { echo "readme-start: / does not serve the web console"; exit 1; }
  # Ctrl-C reaches the whole foreground process group.
  kill -INT -- "-$pid"
  for i in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  if kill -0 "$pid" 2>/dev/null; then echo "readme-start: still running after SIGINT"; exit 1; fi
  if pgrep -f "$work/platform/.data/postgres" >/dev/null; then echo "readme-start: orphaned postgres"; exit 1; fi
}
start_and_stop 1
test -f dist/src/main.js || { echo "readme-start: npm start did not build dist/"; exit 1; }
grep -qE '^> node( --[a-z-]+=[0-9]+)* dist/src/main\.js$' "$work/start-1.log" || { echo "readme-start: npm start did not run the compiled dist/src/main.js"; cat "$work/start-1.log"; exit 1; }
grep -q 'Admin token' "$work/start-1.log" || { echo "readme-start: the first start printed no admin token"; exit 1; }
test -s .data/admin-token
start_and_stop 2
if grep -q 'Admin token' "$work/start-2.log"; then echo "readme-start: the second start issued another admin token"; exit 1; fi
if grep -q 'compiling' "$work/start-2.log"; then echo "readme-start: the second start compiled again although nothing changed"; exit 1; fi
echo "readme-start: npm install && npm start serves /healthz and the console, reuses its data, and stops cleanly"
