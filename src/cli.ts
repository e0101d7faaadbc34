#!/usr/bin/env node
// Placeholder composition root; issue 2 replaces it with the real CLI.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
if (process.argv.includes('--version')) {
  process.stdout.write(`${pkg.version}\n`);
}
