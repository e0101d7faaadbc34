/**
 * One-shot start-up cost: median wall time of `lwyrm -p hi` answered by the fake provider (one
 * streamed reply, no tools), next to `lwyrm --version` and a bare `node -e 0` in the same
 * iteration, with the code map off and on (a small TypeScript project, warm cache). Also lists
 * the packages the one-shot path loads: Ink, React and TypeScript must not be among them.
 *
 *   node --import tsx scripts/bench-oneshot.ts [runs] [dist-dir]
 *
 * Pass a private copy of dist (with package.json one level up) so a build running elsewhere
 * cannot change files mid-measurement; the default is ./dist.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startFakeProvider } from '../test/support/fake-provider.js';
import { reportFigure } from './bench-report.js';

const runs = Number(process.argv[2] ?? 9);
const dist = resolve(process.argv[3] ?? 'dist');
const cli = join(dist, 'cli.js');

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timed(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ ms: number; stderr: string; status: number | null }> {
  return new Promise((res) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => res({ ms: Number(process.hrtime.bigint() - started) / 1e6, stderr, status }));
  });
}

const fake = await startFakeProvider({ format: 'anthropic', replies: () => ({ text: 'hello' }) });
const root = mkdtempSync(join(tmpdir(), 'lw-bench-oneshot-'));
try {
  const project = join(root, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  for (let i = 0; i < 40; i++) {
    writeFileSync(join(project, 'src', `mod${i}.ts`), `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`);
  }
  mkdirSync(join(root, 'config', 'lindwyrm'), { recursive: true });
  const configFor = (map: boolean) =>
    `default_preset = "fake"\n[code_map]\nenabled = ${map}\n[[presets]]\nname = "fake"\nformat = "anthropic"\nbase_url = "${fake.baseUrl}"\nmodel = "m"\napi_key_env = ["FAKE_API_KEY"]\n`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: root,
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CACHE_HOME: join(root, 'cache'),
    FAKE_API_KEY: 'bench-key',
  };
  // Which packages load: a resolve hook logs every module URL. It changes the timing, so it runs
  // apart from the timed runs.
  const log = join(root, 'modules.log');
  writeFileSync(
    join(root, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`,
  );
  writeFileSync(
    join(root, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(root, 'hooks.mjs')).href)});\n`,
  );
  for (const map of [false, true]) {
    writeFileSync(join(root, 'config', 'lindwyrm', 'config.toml'), configFor(map));
    writeFileSync(log, '');
    await timed(['--import', pathToFileURL(join(root, 'register.mjs')).href, cli, '-p', 'hi', '--no-save'], env, project);
    const urls = readFileSync(log, 'utf8');
    const packages = new Set([...urls.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].map((m) => m[1]!));
    const label = map ? 'code map on ' : 'code map off';
    console.log(`${label}: packages loaded by -p: ${[...packages].sort().join(', ') || '(none)'}`);
    const bare: number[] = [];
    const version: number[] = [];
    const oneshot: number[] = [];
    await timed([cli, '-p', 'hi', '--no-save'], env, project); // warm caches (and the code map's)
    for (let i = 0; i < runs; i++) {
      bare.push((await timed(['-e', '0'], env, project)).ms);
      version.push((await timed([cli, '--version'], env, project)).ms);
      const r = await timed([cli, '-p', 'hi', '--no-save'], env, project);
      if (r.status !== 0) throw new Error(`lwyrm -p failed: ${r.stderr}`);
      oneshot.push(r.ms);
    }
    console.log(
      `${label}: node -e 0 ${median(bare).toFixed(0)} ms · --version ${median(version).toFixed(0)} ms · -p (one reply) ${median(oneshot).toFixed(0)} ms (median of ${runs})`,
    );
    const over = median(oneshot.map((ms, i) => ms - (bare[i] ?? 0)));
    reportFigure({ figure: `lwyrm -p, one reply from the fake provider, ${label.trim()} (total wall)`, median: Math.round(median(oneshot)), unit: 'ms' });
    reportFigure({ figure: `lwyrm -p, ${label.trim()}, over bare node`, median: Math.round(over), unit: 'ms' });
  }
} finally {
  await fake.close();
  rmSync(root, { recursive: true, force: true });
}
