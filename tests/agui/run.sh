#!/usr/bin/env bash
# AG-UI conformance: builds the warrant binary, installs the pinned official AG-UI packages
# when missing, and runs the Node tests against `warrant serve` and `warrant stdio`.
# Usage: tests/agui/run.sh   (WARRANT_BIN=path skips the build and tests that binary)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
if [ -z "${WARRANT_BIN:-}" ]; then
  cargo build -p warrant --locked
fi
cd "$here"
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund
fi
node --test
