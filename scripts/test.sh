#!/usr/bin/env bash
# Every test: typecheck, unit/integration tests on Node wasm, and browser tests in Chromium (WebGPU + wasm).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh --browser
npx tsc -p .
npx biome ci --reporter=summary .
npx vitest run "$@"
