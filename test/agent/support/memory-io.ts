/** In-memory stdio for runOneShotWith, so a test reads what a run printed and can press Ctrl+C. */
import { PassThrough } from 'node:stream';
import type { OneShotIo } from '../../../src/headless/oneshot-run.js';

export interface MemoryIo {
  readonly io: OneShotIo;
  stdout(): string;
  stderr(): string;
  /** The Ctrl+C the run listens for; a no-op while it is not listening, as a real SIGINT would be. */
  interrupt(): void;
}

export function memoryIo(): MemoryIo {
  const collect = (): { stream: PassThrough; text(): string } => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    return { stream, text: () => text };
  };
  const stdout = collect();
  const stderr = collect();
  let sigint: (() => void) | undefined;
  return {
    io: {
      stdin: new PassThrough(),
      stdout: stdout.stream,
      stderr: stderr.stream,
      onInterrupt: (handler) => {
        sigint = handler;
        return () => (sigint = undefined);
      },
    },
    stdout: stdout.text,
    stderr: stderr.text,
    interrupt: () => sigint?.(),
  };
}
