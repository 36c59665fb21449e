#!/usr/bin/env bash
# Runs the web UI's tests: the reducer and helpers under Node's test runner, then the UI in
# headless Chromium (Debian's `chromium`, driven by playwright-core) against the real
# `warrant serve`. Installs what is missing: node_modules (npm ci) and chromium (apt-get).
# Usage: web/run-tests.sh [--unit]   (--unit: only the Node tests, no browser)
set -euo pipefail
cd "$(dirname "$0")"

if [ ! -d node_modules/playwright-core ]; then
  echo "== npm ci (web)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
fi

echo "== node --test (web unit tests)"
node --test tests/unit/

if [ "${1:-}" = "--unit" ]; then
  exit 0
fi

if ! command -v chromium >/dev/null 2>&1; then
  echo "== installing Debian's chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi

# The History view's broken-chain test edits the database with the sqlite3 shell.
if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "== installing Debian's sqlite3"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq sqlite3 >/dev/null
fi

if [ -z "${WARRANT_BIN:-}" ]; then
  echo "== cargo build -p warrant"
  (cd .. && cargo build --locked -p warrant --bin warrant)
fi

echo "== node --test (web browser tests)"
rm -rf ../test-output/web
node --test --test-concurrency=1 --test-timeout=120000 tests/browser/
