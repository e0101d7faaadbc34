import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOffloadStore } from '../../src/context/offload-store.js';
import { bareRegex, formatRecall, parseRecallQuery, searchRecall, stubRefs, type RecallDoc, type RecallQuery } from '../../src/context/recall-search.js';
import { renderTurns, splitTurns } from '../../src/context/turn-archive.js';
import { withSummary } from '../../src/context/summary-message.js';
import type { UserMessage } from '../../src/providers/types.js';
import { recallTool } from '../../src/tools/recall.js';
import type { ToolContext } from '../../src/tools/types.js';
import { MARKER, answer, call, prompt, result, withTempDir } from './helpers.js';

const parsed = (q: string): RecallQuery => {
  const r = parseRecallQuery(q);
  if ('error' in r) throw new Error(r.error);
  return r;
};

describe('recall queries', () => {
  it('reads words, "quoted phrases" and /regex/flags, and says what is wrong with a bad one', () => {
    expect(parsed('Port  "Blue Proxy" port')).toEqual({ kind: 'words', terms: ['port', 'blue proxy'] });
    const re = parsed('/ECONN\\w+/i');
    expect(re.kind === 'regex' && re.regex.flags).toBe('gi');
    expect(parseRecallQuery('   ')).toEqual({ error: expect.stringMatching(/empty/) });
    expect(parseRecallQuery('/(unclosed/')).toEqual({ error: expect.stringMatching(/not a valid regular expression/) });
    // A path is words, even when it looks like /a/flags.
    expect(parsed('/usr/bin/env')).toEqual({ kind: 'words', terms: ['/usr/bin/env'] });
    expect(parsed('/x/g')).toEqual({ kind: 'words', terms: ['/x/g'] });
    // A lone slash is a word, not an empty regex.
    expect(parsed('/')).toEqual({ kind: 'words', terms: ['/'] });
  });
});

describe('a pattern written without slashes', () => {
  it('reads as a regex when it has the signs of one, and only then', () => {
    for (const q of ['port \\d+', 'conn(ect|ection) refused', 'ECONN[A-Z]+', 'error.*5432', '^USER']) {
      const r = bareRegex(q);
      expect(r?.kind === 'regex' && r.regex.flags).toBe('gi');
    }
    for (const q of ['port 5432', 'blue proxy', '/usr/bin/env', 'a+b', 'what?', 'x(y']) expect(bareRegex(q)).toBeUndefined();
  });

  it('is searched as one when no text has all its words, and the answer says so', () =>
    withTempDir(async (dir) => {
      const store = createOffloadStore({ dir: join(dir, 'offload'), sessionId: 's' });
      await store.archive(['USER:\nwhere does staging listen?\nASSISTANT:\nOn port 48213.', 'USER:\nthanks']);
      const ctx = { config: { maxToolOutputChars: 30_000 }, offload: store } as unknown as ToolContext; // recall reads these two only
      const found = await recallTool.run({ query: 'port \\d{5}' }, ctx);
      expect(found.content).toMatch(/^\(No text has those words; read as the regex \/port \\d\{5\}\/i instead\.\)/);
      expect(found.content).toMatch(/arc_0001 \(archived turn\), 1 hit:\n(?:.*\n)?\s+4 {2}On port 48213\./);
      // Words that find something stay words.
      expect((await recallTool.run({ query: 'port' }, ctx)).content).toMatch(/^1 archived text match "port"/);
      // A pattern that matches nothing as a regex is answered as words, as written.
      expect((await recallTool.run({ query: 'port \\d{6}' }, ctx)).content).toMatch(/^No archived text has all of "port" "\\\\d\{6\}"; these have some of them/);
    }));
});

describe('recall search', () => {
  const docs: RecallDoc[] = [
    { ref: 'arc_0001', text: 'USER:\nset up the database\nASSISTANT:\nThe database listens on 5432.' },
    { ref: 'arc_0002', text: 'USER:\nrun the tests\nTOOL RESULT bash (error):\nError: connect ECONNREFUSED 127.0.0.1:5432\nat TCPConnectWrap' },
    { ref: 'off_0003', from: 'arc_0002', text: 'line 1\nline 2\nthe full log: ECONNREFUSED again\nline 4' },
  ];

  it('finds every word in a document, best first, newest first on a tie, with numbered lines', () => {
    const matches = searchRecall(docs, parsed('econnrefused 5432'));
    expect(matches.map((m) => [m.doc.ref, m.found])).toEqual([
      ['arc_0002', 2],
      // A tie: the later turn first (off_0003 is a result in turn 2).
      ['off_0003', 1],
      ['arc_0001', 1],
    ]);
    const text = formatRecall(parsed('econnrefused 5432'), matches, docs.length);
    expect(text).toMatch(/^1 archived text match "econnrefused" "5432" \(of 3 searched\):/);
    // Only the documents with every word are shown when there are some.
    expect(text).toContain('arc_0002 (archived turn), 2 hits:');
    expect(text).toMatch(/ {4}4 {2}Error: connect ECONNREFUSED 127\.0\.0\.1:5432/);
    expect(text).not.toContain('arc_0001 (archived turn)');
    expect(text).toContain('read_offloaded(ref) opens one in full');
  });

  it('shows partial matches when no document has all the words, and names a tool result with its turn', () => {
    const q = parsed('econnrefused "full log"');
    const text = formatRecall(q, searchRecall(docs, q), docs.length);
    expect(text).toMatch(/^1 archived text match/);
    expect(text).toContain('off_0003 (a tool result in archived turn arc_0002)');
    const none = parsed('redis sentinel');
    expect(formatRecall(none, searchRecall(docs, none), 3)).toMatch(/^No match for "redis" "sentinel" in 3 archived texts/);
    const some = parsed('database redis');
    expect(formatRecall(some, searchRecall(docs, some), 3)).toMatch(/^No archived text has all of "database" "redis"; these have some of them:/);
  });

  it('matches a regex across the text and keeps long lines and control characters in check', () => {
    const long = `${'x'.repeat(5_000)} needle=42 ${'y'.repeat(5_000)}\u001b[2J`;
    const q = parsed('/needle=\\d+/');
    const [m] = searchRecall([{ ref: 'arc_0009', text: long }], q);
    expect(m!.excerpts[0]!.length).toBeLessThan(300);
    expect(m!.excerpts[0]).toContain('needle=42');
    expect(m!.excerpts[0]).not.toContain('\u001b');
    // An empty-width match does not loop forever.
    expect(searchRecall([{ ref: 'arc_0001', text: 'abc' }], parsed('/x*/'))[0]!.hits).toBe(4);
  });

  it('reads the refs of the stubs an archived turn kept', () => {
    const stub = '[offloaded lindwyrm: read_file a.ts -- 900 lines, 30 KB, ref off_0007]\n...\nread_offloaded("off_0007") returns the whole snapshot.\nand read_offloaded("off_0012")';
    expect(stubRefs(stub)).toEqual(['off_0007', 'off_0012']);
  });
});

describe('the archive', () => {
  it('renders each turn in its own words, skipping an earlier summary and taking the marker out', () => {
    const first = withSummary(prompt('next task') as UserMessage, 'old summary', MARKER, ['arc_0001']);
    const history = [
      first,
      call('c1', 'read_file', { path: 'src/a.ts' }, 'Reading it.'),
      result('c1', `[offloaded ${MARKER}: read_file src/a.ts -- 900 lines, 30 KB, ref off_0002]`),
      answer('Done reading.'),
      prompt('second'),
      answer('ok'),
    ];
    expect(splitTurns(history).map((t) => t.length)).toEqual([4, 2]);
    const [one, two] = renderTurns(history, MARKER, new Date('2026-12-01T10:00:00.123Z'));
    expect(one).toMatch(/^\[Archived turn, summarized away at 2026-12-01T10:00:00Z\./);
    expect(one).toContain('(a summary of the turns archived before this one stood here)');
    expect(one).not.toContain('old summary');
    expect(one).toContain('USER:\nnext task');
    expect(one).toContain('TOOL CALL read_file {"path":"src/a.ts"}');
    expect(one).toContain('TOOL RESULT read_file:\n[offloaded lindwyrm: read_file src/a.ts');
    expect(one).not.toContain(MARKER);
    expect(stubRefs(one!)).toEqual(['off_0002']);
    expect(two).toContain('ASSISTANT:\nok');
  });

  it('keeps archived turns beside the offloads, numbered on across a resume, redacted, and out of the offload list', () =>
    withTempDir(async (dir) => {
      const redact = (t: string) => t.replaceAll('sk-secret-123', '[REDACTED]');
      const store = createOffloadStore({ dir: join(dir, 'offload'), sessionId: 's', redact });
      expect(await store.put('bash', 'output')).toBe('off_0001');
      expect(await store.archive(['turn one sk-secret-123', 'turn two'])).toEqual(['arc_0001', 'arc_0002']);
      expect(await store.read('arc_0001')).toBe('turn one [REDACTED]');
      // Private like every snapshot: a turn holds whatever the agent read.
      expect((await stat(join(store.path, 'arc_0001.txt'))).mode & 0o777).toBe(0o600);
      expect((await store.list()).map((f) => f.ref)).toEqual(['off_0001']);
      const resumed = createOffloadStore({ dir: join(dir, 'offload'), sessionId: 's', redact });
      expect(await resumed.archive(['turn three'])).toEqual(['arc_0003']);
      expect(await resumed.put('grep', 'x')).toBe('off_0002');
      expect((await resumed.archived()).map((t) => [t.ref, t.text])).toEqual([
        ['arc_0001', 'turn one [REDACTED]'],
        ['arc_0002', 'turn two'],
        ['arc_0003', 'turn three'],
      ]);
      expect(await resumed.read('arc_9999')).toBeUndefined();
      expect(await resumed.read('../arc_0001')).toBeUndefined();
    }));
});
