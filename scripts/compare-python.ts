/**
 * Compares the code map's find_references on a Python project with pyright's language server
 * (textDocument/references), and prints recall and precision of the sure references by symbol
 * kind (and the recall when the "possible references" are counted too).
 *
 *   node --import tsx scripts/compare-python.ts PROJECT [--per-kind 60] [--only src/] [--verbose]
 *
 * --only: symbols and references in files under that prefix only (a package whose tests import it
 * as installed, which pyright cannot see without an environment).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openCodeMap } from '../src/codemap/code-map.js';
import { loadConfig } from '../src/config/load-config.js';
import type { ToolContext } from '../src/tools/types.js';
import { startPyright } from '../test/support/pyright-client.js';
import { comparePython, formatComparison } from '../test/support/python-compare.js';
import { createSessionGrants } from '../src/policy/session-grants.js';

const args = process.argv.slice(2);
const root = resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--per-kind' && args[i - 1] !== '--only') ?? '.');
const perKind = Number(args[args.indexOf('--per-kind') + 1]) || 60;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]! : '';

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'lwyrm-compare-py-'));
  const env = { HOME: join(work, 'home'), XDG_CACHE_HOME: join(work, 'cache'), XDG_CONFIG_HOME: join(work, 'config') };
  // A src/ layout: the package is imported from there (the code map resolves it so too).
  const pyright = await startPyright(root, { extraPaths: existsSync(join(root, 'src')) ? [join(root, 'src')] : [] });
  try {
    const config = await loadConfig({ cwd: root, env });
    const map = await openCodeMap({ projectRoot: root, cacheDir: join(work, 'map'), config, worker: 'off' });
    const python = map.symbols().filter((s) => /\.pyi?$/.test(s.file) && s.file.startsWith(only));
    const byKind = new Map<string, typeof python>();
    for (const s of python) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
    const sample = [...byKind.values()].flatMap((list) => {
      const step = Math.max(1, list.length / perKind);
      const out: typeof list = [];
      for (let i = 0; i < list.length && out.length < perKind; i += step) out.push(list[Math.floor(i)]!);
      return out;
    });
    console.log(`project: ${root}: ${new Set(python.map((s) => s.file)).size} Python files, ${python.length} symbols; asking ${sample.length}`);
    const ctx: ToolContext = {
      config, projectRoot: config.projectRoot, sessionId: 'compare', signal: new AbortController().signal, readOnly: true,
      preApproved: new Set(['read']), sessionGrants: createSessionGrants(), approve: async () => 'no',
      offload: { read: async () => undefined }, vision: false,
    };
    const t0 = performance.now();
    const result = await comparePython(root, map, pyright, ctx, sample, only);
    console.log(`find_references (sure) against pyright textDocument/references (${((performance.now() - t0) / 1000).toFixed(1)} s):`);
    console.log(formatComparison(result));
    if (args.includes('--verbose')) for (const m of result.misses) console.log(m);
    await map.close();
  } finally {
    await pyright.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
