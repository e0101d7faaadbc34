/** --input-format stream-json's reader: user turns, approval answers, interrupts, bad lines. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createStreamJsonInput, userTurnOf } from '../../src/headless/stream-json-input.js';
import type { ApprovalRequest } from '../../src/policy/types.js';

const request = (id: string): ApprovalRequest => ({ id, kind: 'write', tool: 'write_file', summary: 'create a', reason: 'default write=confirm' });

describe('stream-json input', () => {
  it('reads Claude Code shaped user messages: text, blocks, images', () => {
    expect(userTurnOf({ role: 'user', content: 'hi' })).toEqual({ text: 'hi', images: [] });
    expect(userTurnOf({ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })).toEqual({ text: 'a\nb', images: [] });
    expect(userTurnOf({ content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] })).toEqual({
      text: '',
      images: [{ mediaType: 'image/png', base64: 'AAAA' }],
    });
    expect(userTurnOf({ content: [{ type: 'image', source: { type: 'url', url: 'x' } }] })).toMatch(/base64/);
    expect(userTurnOf({ content: [{ type: 'audio' }] })).toMatch(/not supported/);
    expect(userTurnOf({ content: '   ' })).toMatch(/empty/);
    expect(userTurnOf('hi')).toMatch(/needs "message"/);
  });

  it('queues turns until stdin ends, answers approvals by id, reports what it cannot use', async () => {
    const stdin = new PassThrough();
    const errors: [number, string][] = [];
    let interrupts = 0;
    const input = createStreamJsonInput({ stdin, onError: (n, e) => void errors.push([n, e]), onInterrupt: () => void interrupts++ });
    const asked = input.approver(request('r1'));
    stdin.write('{"type":"user","message":{"role":"user","content":"one"}}\n\n{oops\n');
    stdin.write('{"type":"approval_response","request_id":"r1","decision":"always"}\n');
    stdin.write('{"type":"approval_response","request_id":"r9","decision":"yes"}\n');
    stdin.write('{"type":"control_request","request_id":"c","request":{"subtype":"interrupt"}}\n{"type":"interrupt"}\n');
    stdin.write('{"type":"weird"}\n{"type":"user","message":{"role":"user","content":[{"type":"text","text":"two"}]}}\n');
    expect(await asked).toBe('always');
    const late = input.approver(request('r2'));
    stdin.end();
    const turns: string[] = [];
    for await (const t of input.turns()) turns.push(t.text);
    expect(turns).toEqual(['one', 'two']);
    // A question still open when stdin ends is a no: nothing is approved by silence.
    expect(await late).toBe('no');
    expect(interrupts).toBe(2);
    expect(errors.map(([n]) => n)).toEqual([3, 5, 8]);
    expect(errors[1]![1]).toMatch(/no approval request "r9"/);
    expect(errors[2]![1]).toMatch(/unknown line type "weird"/);
  });
});
