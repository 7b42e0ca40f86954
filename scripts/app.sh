#!/usr/bin/env bash
# Starts the app at http://127.0.0.1:5173 after installing what it needs: the production build, served
# with the headers that isolate it (wasm threads), so what you see runs at the speed a deployed copy does.
# `npm run dev` (or `bash scripts/app.sh --dev`) starts Vite's dev server instead, with hot reload.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
port="${PORT:-5173}"
if [[ "${1:-}" == "--dev" ]]; then
  shift
  exec npx vite --host 127.0.0.1 --port "$port" "$@"
fi
npx vite build --logLevel warn
exec npx vite preview --host 127.0.0.1 --port "$port" --strictPort "$@"
