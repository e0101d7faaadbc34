/** claimStdout: once stdout is a protocol, other writes go to stderr; the claim's writer does not. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { claimStdout } from '../../src/headless/protocol-stdout.js';

function sink(): NodeJS.WriteStream & { text: string } {
  const w = new Writable({
    write(chunk: Buffer, _enc, done) {
      (w as unknown as { text: string }).text += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream & { text: string };
  w.text = '';
  return w;
}

describe('claimStdout', () => {
  it('diverts stray writes to stderr and keeps one writer for the protocol', () => {
    const out = sink();
    const err = sink();
    const claim = claimStdout(out, err);
    out.write('stray from a dependency\n');
    claim.write('{"jsonrpc":"2.0"}\n');
    // A second claim (the CLI claimed first, the output code claims again) is the same writer.
    expect(claimStdout(out, err)).toBe(claim);
    claimStdout(out, err).write('{"more":1}\n');
    expect(out.text).toBe('{"jsonrpc":"2.0"}\n{"more":1}\n');
    expect(err.text).toBe('stray from a dependency\n');
    claim.release();
    out.write('after release\n');
    expect(out.text).toContain('after release');
  });
});
