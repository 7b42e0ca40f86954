#!/usr/bin/env bash
# Starts the app (Vite dev server) at http://localhost:5173 after installing what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
exec npx vite --host 127.0.0.1 --port "${PORT:-5173}" "$@"
