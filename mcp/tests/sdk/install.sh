#!/usr/bin/env bash
# Installs the official MCP Python SDK at the version the MCP gateway's tests pin, when the
# machine's python3 does not already have it.
set -euo pipefail
PIN="1.26.0"
PY="${WARRANT_TEST_PYTHON:-python3}"
if "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$PIN')" 2>/dev/null; then
  exit 0
fi
echo "== installing the official MCP Python SDK (mcp==$PIN) for the MCP gateway's tests"
"$PY" -m pip install --quiet --disable-pip-version-check "mcp==$PIN"
