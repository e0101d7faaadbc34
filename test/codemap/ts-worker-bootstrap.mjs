// Runs the indexing worker from TypeScript source under tests (the built one is dist/codemap-worker.js).
import { register } from 'tsx/esm/api';

register();
await import('../../src/codemap/index-worker.ts');
