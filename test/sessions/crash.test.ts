import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore } from '../../src/sessions/session-store.js';
import { killAndWait, startChild, waitForLine } from './support/child.js';
import { expectedHistory } from './support/expected-history.js';
import { makeRecord } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

let t: TempSetup;
beforeEach(async () => {
  t = await tempSetup();
});
afterEach(async () => {
  await t.cleanup();
});

describe('crash safety', () => {
  it('leaves the last committed state or the next one when a saving process is SIGKILLed', async () => {
    // Kill points spread over appends and whole rewrites (every fifth save is a rewrite).
    for (const [killAfter, extraMs] of [[3, 0], [4, 1], [5, 0], [9, 3], [12, 0]] as const) {
      const child = startChild('./save-loop.ts', [t.sessionsDir, t.project, `crash${killAfter}`]);
      try {
        await waitForLine(child, (l) => l === `saved ${killAfter}`);
        if (extraMs > 0) await new Promise((r) => setTimeout(r, extraMs));
      } finally {
        await killAndWait(child);
      }
      const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
      const loaded = await store.load(`crash${killAfter}`);
      expect(loaded.turns).toBeGreaterThanOrEqual(killAfter);
      expect(loaded).toStrictEqual(makeRecord(`crash${killAfter}`, t.project, expectedHistory(loaded.turns), { turns: loaded.turns }));
      // The dead writer's lock is taken over and saving carries on.
      await store.save({ ...loaded, turns: loaded.turns + 1 });
      await store.close();
    }
    // Five child processes: generous under a loaded CI machine.
  }, 60_000);
});
