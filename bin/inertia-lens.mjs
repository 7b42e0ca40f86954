#!/usr/bin/env node
// Runs the TypeScript CLI directly (tsx), so `npx inertia-lens` works from the repo without a build step.
import { register } from 'tsx/esm/api';

// `inertia-lens … | head` closes stdout early: end quietly, as command-line tools do.
process.stdout.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : 1));
register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv.slice(2));
