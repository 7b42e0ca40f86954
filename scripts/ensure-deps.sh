#!/usr/bin/env bash
# Installs what the app and the tests need when it is missing: npm packages (from the lockfile) and,
# for the browser tests, Debian's Chromium. Safe to run repeatedly; it does nothing when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm packages (npm ci)…"
  npm ci --no-audit --no-fund # .npmrc: no install scripts (no CUDA download)
fi
if [ "${1:-}" = "--browser" ] && [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "installing Debian's chromium for the browser tests…"
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; else sudo apt-get update -qq && sudo apt-get install -y -qq chromium; fi
fi
