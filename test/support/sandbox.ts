/**
 * A throwaway home for one test (or one benchmark): lindwyrm reads its config and writes its
 * sessions and caches under HOME and the XDG dirs, so every run gets its own, never the
 * developer's. The config's default preset points at the fake provider, whose key comes from the
 * environment as a real user's would.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeFormat } from './fake-provider.js';

export interface SandboxOptions {
  readonly format: FakeFormat;
  readonly baseUrl: string;
  /** Top-level config keys (written before any table). */
  readonly configToml?: string;
  /** Keys added to the fake preset, or further `[[presets]]` after it. */
  readonly presetToml?: string;
  /** Off unless asked: indexing costs time and races cleanup, and few tests are about it. */
  readonly codeMap?: boolean;
}

export interface Sandbox {
  readonly root: string;
  readonly project: string;
  readonly configPath: string;
  /** For an in-process session or a spawned child; mutable so a test can swap the key. */
  readonly env: Record<string, string | undefined>;
  /** The same variables as `KEY='value' ...` for a command line run by a shell (tmux); no PATH. */
  readonly shellEnv: string;
  cleanup(): Promise<void>;
}

export const FAKE_API_KEY = 'test-key';

export const shellQuote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

export async function makeSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'lw-test-'));
  const project = join(root, 'project');
  const configHome = join(root, 'config');
  const configPath = join(configHome, 'lindwyrm', 'config.toml');
  await mkdir(project, { recursive: true });
  await mkdir(join(configHome, 'lindwyrm'), { recursive: true });
  await writeFile(
    configPath,
    `default_preset = "fake"
${opts.configToml ?? ''}
[code_map]
enabled = ${opts.codeMap === true}

[[presets]]
name = "fake"
format = "${opts.format}"
base_url = "${opts.baseUrl}"
model = "fake-model"
api_key_env = ["FAKE_API_KEY"]
thinking = false
context_window = 200000
max_tokens = 4096
${opts.presetToml ?? ''}
`,
  );
  const vars = {
    HOME: root,
    XDG_CONFIG_HOME: configHome,
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CACHE_HOME: join(root, 'cache'),
    FAKE_API_KEY,
  };
  return {
    root,
    project,
    configPath,
    env: { ...vars, PATH: process.env['PATH'] },
    shellEnv: Object.entries(vars)
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(' '),
    // Retried: a code map worker may still be writing its cache when a test ends.
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }),
  };
}
