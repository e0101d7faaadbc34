/**
 * Compares the code map's find_references and get_dependencies (depth 1) with the TypeScript
 * language service on any TS/JS project, and prints recall and precision by symbol kind (how the
 * truth is made: test/support/ts-compare.ts).
 *
 *   node --import tsx scripts/compare-codemap.ts PROJECT [--per-kind 80] [--index-only] [--fresh] [--worker dist/codemap-worker.js] [--verbose]
 *
 * --index-only asks a code map without the checker (the syntax index), for comparison. --fresh
 * asks each symbol of a new checker (in this thread), as the first question of a session: an
 * answer that needs files earlier questions brought into the program shows as a miss.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dropCheckers } from '../src/codemap/checker-host.js';
import { openCodeMap } from '../src/codemap/code-map.js';
import { loadConfig } from '../src/config/load-config.js';
import { compareWithLanguageService } from '../test/support/ts-compare.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const root = resolve(args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--per') && !args[i - 1]?.startsWith('--worker')) ?? '.');
const perKind = Number(flag('--per-kind') ?? 80);
const indexOnly = args.includes('--index-only');
const workerPath = flag('--worker');

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'lwyrm-compare-'));
  const env = { HOME: join(work, 'home'), XDG_CACHE_HOME: join(work, 'cache'), XDG_CONFIG_HOME: join(work, 'config') };
  try {
    const config = await loadConfig({ cwd: root, env });
    const map = await openCodeMap({
      projectRoot: root, cacheDir: join(work, 'map'), config, typeChecker: !indexOnly,
      worker: workerPath ? { url: new URL(`file://${resolve(workerPath)}`) } : 'off',
    });
    const fresh = args.includes('--fresh') && !workerPath;
    const label = indexOnly ? 'syntax index only' : fresh ? 'checker-backed, a new checker for each symbol' : 'checker-backed';
    const result = await compareWithLanguageService(root, map, config, perKind, label, fresh ? dropCheckers : undefined);
    console.log(result.report);
    if (args.includes('--verbose')) for (const m of result.misses) console.log(m);
    await map.close();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
