/**
 * max_cost_per_turn, max_cost_per_session, max_tokens_per_turn: read and checked, unset by
 * default; a project that is not trusted may only lower them (setting one where the user has
 * none lowers it from unlimited), a trusted one sets them freely.
 */
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

describe('budgets', () => {
  it('are unset by default and read from the user config', async () => {
    expect((await load()).budgets).toEqual({});
    await t.writeUser('max_cost_per_turn = 0.5\nmax_cost_per_session = 5\nmax_tokens_per_turn = 200000\n');
    expect((await load()).budgets).toEqual({ costPerTurn: 0.5, costPerSession: 5, tokensPerTurn: 200_000 });
  });

  it('refuse values that are no budget, naming the key', async () => {
    for (const [line, key] of [
      ['max_cost_per_turn = 0', 'max_cost_per_turn'],
      ['max_cost_per_session = -1', 'max_cost_per_session'],
      ['max_tokens_per_turn = 1.5', 'max_tokens_per_turn'],
      ['max_cost_per_turn = "1"', 'max_cost_per_turn'],
    ]) {
      await t.writeUser(`${line}\n`);
      const error = await load().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`key "${key}"`);
    }
  });

  it('an untrusted project may lower them, or set one the user left unset, but not raise them', async () => {
    await t.writeUser('max_cost_per_turn = 1\nmax_tokens_per_turn = 100000\n');
    await t.writeProject('max_cost_per_turn = 0.25\nmax_cost_per_session = 3\nmax_tokens_per_turn = 900000\n');
    const c = await load();
    expect(c.budgets).toEqual({ costPerTurn: 0.25, costPerSession: 3, tokensPerTurn: 100_000 });
    expect(c.warnings.join('\n')).toMatch(/max_tokens_per_turn above your own \(900000 > 100000\)/);
    expect(c.warnings.join('\n')).not.toMatch(/max_cost_per_turn above/);
  });

  it('a trusted project sets them freely', async () => {
    await t.writeUser(`trusted_projects = [${JSON.stringify(t.project)}]\nmax_cost_per_turn = 1\n`);
    await t.writeProject('max_cost_per_turn = 4\n');
    expect((await load()).budgets).toEqual({ costPerTurn: 4 });
  });
});
