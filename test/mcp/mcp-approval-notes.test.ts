/** An MCP tool's approval says what its arguments hide, as a bash command's does. */
import { describe, expect, it } from 'vitest';
import { gateMcp } from '../../src/mcp/mcp-policy.js';
import { makeContext, makeTempDir } from '../tools/make-context.js';

describe('MCP approvals', () => {
  it('flag look-alike letters and name invisible characters in the arguments', async () => {
    const ctx = makeContext(await makeTempDir(), { answer: 'no' });
    const result = await gateMcp(ctx, {
      full: 'mcp__web__fetch',
      server: 'web',
      tool: 'fetch',
      decision: { level: 'confirm', reason: 'mcp tools ask' },
      args: { url: 'https://g\u0456thub.com/x\u202e' },
      grants: new Set(),
    });
    expect(result?.failure).toBe('denied');
    const [asked] = ctx.asked;
    expect(asked?.titleNote).toBe('contains control characters: RLO');
    expect(asked?.flags).toEqual(['mixed scripts in "g\u0456thub.com": "\u0456" (U+0456) is Cyrillic, among Latin letters']);
    expect(asked?.command).not.toContain('\u202e');
  });

  it('leave plain arguments alone', async () => {
    const ctx = makeContext(await makeTempDir(), { answer: 'yes' });
    await gateMcp(ctx, { full: 'mcp__web__fetch', server: 'web', tool: 'fetch', decision: { level: 'confirm', reason: 'ask' }, args: { url: 'https://github.com/' }, grants: new Set() });
    expect(ctx.asked[0]).not.toHaveProperty('titleNote');
    expect(ctx.asked[0]).not.toHaveProperty('flags');
  });
});
