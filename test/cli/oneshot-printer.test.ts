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

describe('one-shot printer: how a turn ended', () => {
  it('shows control characters from an error detail (often a server\'s words) escaped', () => {
    const { p, text } = printer();
    p.onEvent({ type: 'turn.end', blockId: 't', status: 'error', detail: 'The provider failed (HTTP 500): \x1b]52;c;aGk=\x07\x1b[2J' });
    expect(text()).toMatch(/^lwyrm: error: The provider failed \(HTTP 500\): /);
    expect(text().includes('\x1b') || text().includes('\x07')).toBe(false);
  });
});

describe('one-shot printer: answer and tool lines on one terminal', () => {
  function run(answerIsTty: boolean, stderrIsTty: boolean) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let screen = '';
    let errText = '';
    stdout.on('data', (c: Buffer) => (screen += c.toString()));
    stderr.on('data', (c: Buffer) => {
      screen += c.toString();
      errText += c.toString();
    });
    const p = createPrinter({ answer: stdout, answerIsTty, stderr, stderrIsTty });
    p.onEvent({ type: 'assistant.delta', blockId: 'a1', text: 'Let me look.' });
    p.onEvent({ type: 'tool.start', blockId: 't1', callId: 'c1', name: 'read_file', title: 'read_file a.txt' });
    p.onEvent({ type: 'tool.end', blockId: 't1', status: 'ok', summary: '1 lines' });
    p.onEvent({ type: 'assistant.delta', blockId: 'a2', text: 'It says hi.' });
    p.finish();
    return { screen, errText };
  }

  it('starts a tool line on a line of its own when both streams are the terminal', () => {
    expect(run(true, true).screen).toBe('Let me look.\n→ read_file a.txt\n  ok 1 lines\n\nIt says hi.\n');
  });

  it('adds nothing to stderr when the answer goes elsewhere', () => {
    expect(run(false, true).errText).toBe('→ read_file a.txt\n  ok 1 lines\n');
  });
});
