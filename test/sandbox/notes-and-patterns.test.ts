/** sandbox_network spellings, and the notes a failed sandboxed command gets. */
import { describe, expect, it } from 'vitest';
import { networkNotes, writeNotes } from '../../src/sandbox/failure-notes.js';
import { parseHostPattern } from '../../src/sandbox/host-patterns.js';
import { sandboxEnv } from '../../src/sandbox/sandbox-env.js';

const ctx = { allowed: [] as string[], refused: [] as string[], projectRoot: '/p' };

describe('parseHostPattern', () => {
  it.each([
    ['GitHub.com', 'github.com'],
    ['*.github.com', '.github.com'],
    ['.github.com', '.github.com'],
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['[::1]', '::1'],
    ['*', '*'],
  ])('%s → %s', (raw, pattern) => expect(parseHostPattern(raw)).toEqual({ ok: true, pattern }));

  it.each(['https://github.com', 'github.com:443', 'bad host', '10.0.0.0/99', ''])('refuses %j', (raw) => expect(parseHostPattern(raw).ok).toBe(false));
});

describe('failure notes', () => {
  it('names the hosts the proxy refused and the setting', () => {
    const [note] = networkNotes('curl: (56) CONNECT tunnel failed, response 403', { ...ctx, allowed: ['pypi.org'], refused: ['evil.test'] });
    expect(note).toContain('evil.test');
    expect(note).toContain('sandbox_network (it lists pypi.org)');
  });

  it.each([
    ['curl: (6) Could not resolve host: registry.npmjs.org', 'registry.npmjs.org'],
    ['npm error getaddrinfo ENOTFOUND registry.npmjs.org', 'registry.npmjs.org'],
    ["fatal: unable to access 'https://github.com/x/y.git/': Could not resolve host: github.com", 'github.com'],
    ['ssh: Could not resolve hostname github.com: Temporary failure in name resolution', 'github.com'],
    ["HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded (Temporary failure in name resolution)", 'pypi.org'],
    ['ping: exfil.attacker.test: Temporary failure in name resolution', 'exfil.attacker.test'],
  ])('finds the host in %j', (output, host) => {
    const [note] = networkNotes(output, ctx);
    expect(note).toContain(host);
    expect(note).toContain('sandbox_network is empty');
  });

  it('says nothing for a failure that is not about the network', () => {
    expect(networkNotes('error TS2322: Type string is not assignable', ctx)).toEqual([]);
    expect(writeNotes('Segmentation fault', ctx)).toEqual([]);
  });

  it('tells a protected project file from a path outside the writable folders', () => {
    const notes = writeNotes("bash: .git/hooks/pre-push: Read-only file system\ntouch: cannot touch '/usr/local/x': Read-only file system", ctx);
    expect(notes[0]).toContain('/p/.git/hooks/pre-push stays read-only');
    expect(notes[1]).toContain('/usr/local/x');
    expect(notes[1]).toContain('sandbox_writable');
  });
});

describe('sandboxEnv', () => {
  it('without network: no proxy variables at all, not even the user\'s', () => {
    const env = sandboxEnv({ HTTPS_PROXY: 'http://corp:3128', no_proxy: 'x', PATH: '/bin' }, { tmpDir: '/tmp', allowed: [] });
    expect(env).toEqual({ PATH: '/bin', TMPDIR: '/tmp' });
  });

  it('with network: every proxy variable points at the bridge; loopback stays direct unless listed', () => {
    const env = sandboxEnv({}, { tmpDir: '/tmp', proxyUrl: 'http://127.0.0.1:3128', allowed: ['127.0.0.1', 'pypi.org'] });
    expect(env['https_proxy']).toBe('http://127.0.0.1:3128');
    expect(env['ALL_PROXY']).toBe('http://127.0.0.1:3128');
    expect(env['NO_PROXY']).toBe('localhost,::1');
  });
});
