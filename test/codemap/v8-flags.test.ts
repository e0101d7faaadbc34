import { describe, expect, it } from 'vitest';
import { TYPESCRIPT_INLINING_BUDGET, lowerInliningBudget, userSetFlag } from '../../src/codemap/v8-flags.js';

const FLAG = 'max-inlined-bytecode-size-cumulative';
const userSetInliningBudget = (argv: string[], nodeOptions: string): boolean => userSetFlag(FLAG, argv, nodeOptions);

describe('the V8 flags the code map sets', () => {
  it('is left alone when the user chose one, on the command line or in NODE_OPTIONS', () => {
    expect(userSetInliningBudget(['--max-inlined-bytecode-size-cumulative=400'], '')).toBe(true);
    expect(userSetInliningBudget(['--max_inlined_bytecode_size_cumulative=400'], '')).toBe(true);
    expect(userSetInliningBudget([], '--max-old-space-size=4096 --max-inlined-bytecode-size-cumulative=10')).toBe(true);
  });

  it('is set when nothing names it (other flags do not count)', () => {
    expect(userSetInliningBudget(['--max-inlined-bytecode-size=100', '--enable-source-maps'], '--max-old-space-size=4096')).toBe(false);
    expect(userSetInliningBudget([], '')).toBe(false);
    expect(userSetFlag('heap-growing-percent', ['--heap_growing_percent=50'], '')).toBe(true);
    expect(userSetFlag('heap-growing-percent', ['--max-old-space-size=4096'], '')).toBe(false);
  });

  it('is below V8 default and lowering it twice is harmless', () => {
    expect(TYPESCRIPT_INLINING_BUDGET).toBeLessThan(920);
    expect(() => { lowerInliningBudget(); lowerInliningBudget(); }).not.toThrow();
  });
});
