/** rewind_max_mb: 500 by default, 0 turns rewind off, and a cloned project may only lower it. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load-config.js';
import { makeTempEnv, type TempEnv } from './temp-env.js';

let t: TempEnv;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  await t.cleanup();
});

const load = () => loadConfig({ cwd: t.project, env: t.env });

describe('rewind_max_mb', () => {
  it('defaults to 500 and takes a user value, 0 included', async () => {
    expect((await load()).rewindMaxMb).toBe(500);
    await t.writeUser('rewind_max_mb = 0\n');
    expect((await load()).rewindMaxMb).toBe(0);
  });

  it('an untrusted project may lower it but not raise it', async () => {
    await t.writeProject('rewind_max_mb = 50\n');
    expect((await load()).rewindMaxMb).toBe(50);
    await t.writeProject('rewind_max_mb = 100000\n');
    const c = await load();
    expect(c.rewindMaxMb).toBe(500);
    expect(c.warnings.join('\n')).toMatch(/rewind_max_mb above your own \(100000 > 500\)/);
  });

  it('a negative value is an error naming the key', async () => {
    await t.writeUser('rewind_max_mb = -1\n');
    const error = await load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/rewind_max_mb/);
  });
});
