/** What is left on the normal screen after leaving. */
import { expect, it } from 'vitest';
import { farewellText } from '../../components/run-tui.js';
import type { TranscriptBlock } from '../../src/agent/state.js';

const blocks: TranscriptBlock[] = [
  { kind: 'user', id: 'u1', version: 0, text: 'hello' },
  { kind: 'assistant', id: 'a1', version: 0, text: 'Hi there.', streaming: false },
];

it('offers no resume command for a session that was not saved (--no-save)', () => {
  const text = farewellText(blocks, 'tmp-4b50278bc3fb');
  expect(text).toContain('Hi there.');
  expect(text).not.toContain('--resume');
  expect(farewellText(blocks, '4b50278bc3fb')).toContain('lwyrm --resume 4b50278bc3fb');
});
