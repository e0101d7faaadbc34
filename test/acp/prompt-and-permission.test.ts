/** The pieces between ACP's shapes and lindwyrm's: prompt blocks, permission options and answers. */
import { describe, expect, it } from 'vitest';
import { decisionOf, permissionOptions } from '../../src/acp/permission.js';
import { promptToTurn } from '../../src/acp/prompt-content.js';
import { slashCommandOf } from '../../src/acp/slash.js';
import type { ApprovalRequest } from '../../src/policy/types.js';

const request = (patch: Partial<ApprovalRequest> = {}): ApprovalRequest => ({ id: 'a1', kind: 'bash', tool: 'bash', summary: 'run make', reason: 'default bash=confirm', ...patch });

describe('ACP prompts', () => {
  it('turns text, resource links and embedded resources into one message', () => {
    const turn = promptToTurn(
      [
        { type: 'text', text: 'Explain this:' },
        { type: 'resource_link', uri: 'file:///home/me/shop/src/a%20b.ts', name: 'a b.ts' },
        { type: 'resource', resource: { uri: 'file:///home/me/shop/src/c.ts', text: 'export const c = 1;', mimeType: 'text/typescript' } },
      ],
      { vision: false },
    );
    expect(turn.text).toBe('Explain this:\n@/home/me/shop/src/a b.ts\n<context uri="/home/me/shop/src/c.ts">\nexport const c = 1;\n</context>');
    expect(turn.images).toEqual([]);
  });

  it('takes images only for a preset that can see, and refuses what it cannot use', () => {
    const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' };
    expect(promptToTurn([{ type: 'text', text: 'what is this' }, image], { vision: true }).images).toEqual([{ mediaType: 'image/png', base64: 'AAAA' }]);
    expect(() => promptToTurn([image], { vision: false })).toThrow(/cannot see images/);
    expect(() => promptToTurn([{ type: 'audio', data: 'x', mimeType: 'audio/wav' }], { vision: true })).toThrow(/not supported/);
    expect(() => promptToTurn([], { vision: true })).toThrow(/empty/);
    expect(() => promptToTurn('hi', { vision: true })).toThrow(/array/);
  });

  it('runs only its own slash commands; other text starting with / is a prompt', () => {
    expect(slashCommandOf('/model pro')).toBe('/model pro');
    expect(slashCommandOf('  /context ')).toBe('/context');
    expect(slashCommandOf('/exit')).toBeUndefined();
    expect(slashCommandOf('/usr/bin is where it lives')).toBeUndefined();
  });
});

describe('ACP permission requests', () => {
  it('offers allow once, allow always and reject; always only where it can grant more than once', () => {
    expect(permissionOptions(request()).map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    expect(permissionOptions(request({ kind: 'write', alwaysGrants: false })).map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
  });

  it('maps the editor\'s answer onto the full screen\'s y / a / n / q', () => {
    expect(decisionOf({ outcome: { outcome: 'selected', optionId: 'allow_once' } })).toBe('yes');
    expect(decisionOf({ outcome: { outcome: 'selected', optionId: 'allow_always' } })).toBe('always');
    expect(decisionOf({ outcome: { outcome: 'selected', optionId: 'reject_once' } })).toBe('no');
    expect(decisionOf({ outcome: { outcome: 'cancelled' } })).toBe('quit');
    // Anything unexpected is a no: nothing runs on a misunderstanding.
    expect(decisionOf({ outcome: { outcome: 'selected', optionId: 'reject_always' } })).toBe('no');
    expect(decisionOf(null)).toBe('no');
  });
});
