import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPrinter } from '../../src/headless/oneshot-printer.js';

function printer() {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (c: Buffer) => (text += c.toString()));
  const p = createPrinter({ answerIsTty: false, stderr, stderrIsTty: false });
  return { p, text: () => text };
}

describe('one-shot printer: tool lines on stderr', () => {
  it('labels each outcome once', () => {
    const { p, text } = printer();
    const end = (status: 'ok' | 'denied' | 'error' | 'interrupted', summary: string) =>
      p.onEvent({ type: 'tool.end', blockId: 'b', status, summary });
    end('ok', 'Edited prices.py');
    end('denied', 'denied: bash');
    end('interrupted', 'interrupted');
    end('error', 'loop detected, not run');
    end('denied', 'the user said no');
    expect(text()).toBe(
      ['  ok Edited prices.py', '  denied: bash', '  interrupted', '  error: loop detected, not run', '  denied: the user said no', ''].join('\n'),
    );
  });
});
