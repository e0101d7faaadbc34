/**
 * Exhaustion and malformed replies, through the built CLI: a reply with far too many tool calls,
 * images that declare more than any provider accepts or inflate past what they declare, a fork
 * bomb, and lindwyrm started from its own bash tool.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmod, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { assertValidHistory } from '../agent/support/harness.js';
import { useBuild } from './support/cli.js';
import { useAttacks } from './support/attack.js';
import { actl, gif, jpegHeader, png, webpX, ztxt } from './support/images.js';
import { deflateSync } from 'node:zlib';

vi.setConfig({ testTimeout: 90_000 });

const cli = useBuild();
const attack = useAttacks(cli);

describe('exhaustion: max_calls_per_reply', () => {
  it('a reply of 70 calls runs 64; the rest are answered "not run", and the history the provider gets stays valid', async () => {
    const calls = Array.from({ length: 70 }, (_, i) => ({ name: 'read_file', input: { path: 'a.txt', offset: i + 1, limit: 1 } }));
    const a = await attack({
      replies: [{ toolCalls: calls }, { text: 'done' }],
      configToml: 'loop_detection_window = 0\n',
      prepare: async (env) => {
        await writeFile(join(env.project, 'a.txt'), Array.from({ length: 70 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
      },
    });
    const r = await a.run(['-p', 'read it all']);
    expect(r.status).toBe(0);
    const results = a.results(1);
    expect(results).toHaveLength(70);
    expect(results.slice(0, 64).every((c) => /^\d+\tline \d+/.test(c))).toBe(true);
    expect(results.slice(64).every((c) => c.includes('Not run: this reply asked for 70 tool calls, and at most 64 run per reply (max_calls_per_reply)'))).toBe(true);
    assertValidHistory(a.request(1));
    expect(r.stderr).toContain('The reply asked for 70 tool calls; the first 64 ran and the other 6 were answered "not run"');
    expect(r.stderr.match(/→ read_file/g)).toHaveLength(64);
  });

  it('max_calls_per_reply lowers the ceiling', async () => {
    const calls = Array.from({ length: 4 }, (_, i) => ({ name: 'list_dir', input: { path: `d${i}` } }));
    const a = await attack({ configToml: 'max_calls_per_reply = 2\n', replies: [{ toolCalls: calls }, { text: 'done' }] });
    const r = await a.run(['-p', 'list']);
    expect(r.status).toBe(0);
    expect(a.results(1).filter((c) => c.startsWith('Not run: this reply asked for 4 tool calls, and at most 2'))).toHaveLength(2);
    assertValidHistory(a.request(1));
  });
});

describe('exhaustion: view_image checks what an image declares before sending it', () => {
  it('refuses oversized, too-large-to-decode, animated and bomb images; sends a sound one', async () => {
    const files: Record<string, Buffer> = {
      'ok.png': png({ width: 4, height: 3 }),
      'huge.png': png({ width: 100_000, height: 100_000, idat: deflateSync(Buffer.alloc(10)) }),
      'big.png': png({ width: 4000, height: 4000, colorType: 6, idat: deflateSync(Buffer.alloc(10)) }),
      // Declares 100 × 100 RGB (30,100 bytes of rows); its pixel stream inflates to 60 MB.
      'bomb.png': png({ width: 100, height: 100, idat: deflateSync(Buffer.alloc(60 * 1024 * 1024)) }),
      'text-bomb.png': png({ width: 4, height: 3, extra: [ztxt(8 * 1024 * 1024)] }),
      'anim.png': png({ width: 4, height: 3, extra: [actl(500)] }),
      'anim.gif': gif(10, 10, 40),
      'wide.jpg': jpegHeader(9000, 100),
      'wide.webp': webpX(12_000, 10),
      'anim.webp': webpX(10, 10, 3),
    };
    const names = Object.keys(files);
    const a = await attack({
      presetToml: 'vision = true\n',
      replies: [...names.map((name) => ({ toolCalls: [{ name: 'view_image', input: { path: name } }] })), { text: 'seen' }],
      prepare: async (env) => {
        for (const [name, bytes] of Object.entries(files)) await writeFile(join(env.project, name), bytes);
      },
    });
    const r = await a.run(['-p', 'look at the images']);
    expect(r.status).toBe(0);
    const results = a.results(names.length);
    const by = (name: string): string => results[names.indexOf(name)] ?? '';
    expect(by('ok.png')).not.toMatch(/was not sent/);
    expect(by('huge.png')).toMatch(/huge\.png was not sent: it is 100000 × 100000 pixels, over the 8000 px a side/);
    expect(by('big.png')).toMatch(/big\.png was not sent: it decodes to 61\.0 MB of pixels \(4000 × 4000\), over the 20\.0 MB limit/);
    expect(by('bomb.png')).toMatch(/bomb\.png was not sent: its pixel data inflates past the 100 × 100 its header declares/);
    expect(by('text-bomb.png')).toMatch(/text-bomb\.png was not sent: its zTXt chunk inflates past 1024 KB/);
    expect(by('anim.png')).toMatch(/anim\.png was not sent: it is animated \(500 frames\)/);
    expect(by('anim.gif')).toMatch(/anim\.gif was not sent: it is animated \(40 frames\)/);
    expect(by('wide.jpg')).toMatch(/wide\.jpg was not sent: it is 9000 × 100 pixels/);
    expect(by('wide.webp')).toMatch(/wide\.webp was not sent: it is 12000 × 10 pixels/);
    expect(by('anim.webp')).toMatch(/anim\.webp was not sent: it is animated \(3 frames\)/);
    // Exactly one image ever reached the provider: the sound one.
    const images = a.fake.requests.at(-1)!.raw.match(/"type":"image"/g) ?? [];
    expect(images).toHaveLength(1);
  });
});

const leftover = (marker: string): number => {
  const out = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(marker) && !l.includes('ps -eo')).length;
};

describe('exhaustion: commands run under a process limit', () => {
  // In the sandbox its own limit holds and lindwyrm notices the refused forks; without it lindwyrm sets the limit.
  it.each([
    ['in the command sandbox', '', '31.4159'],
    ['with the sandbox off', 'sandbox = "off"\n', '31.4158'],
  ])('a fork bomb stops at the limit, fast, and is reported; nothing of it is left running (%s)', async (_where, configToml, marker) => {
    const a = await attack({
      configToml,
      replies: [{ toolCalls: [{ name: 'bash', input: { command: `for i in $(seq 1500); do sleep ${marker} & done; wait; echo finished` } }] }, { text: 'done' }],
    });
    const started = Date.now();
    const r = await a.run(['-p', 'run it', '--allow', 'bash']);
    const took = Date.now() - started;
    expect(r.status).toBe(0);
    const [result] = a.results(1);
    expect(result).toMatch(/\[stopped: it reached the limit of 1024 processes at once \(a fork bomb\?\); the command and its child processes were killed\]/);
    expect(result).not.toContain('finished');
    expect(r.stderr).toMatch(/stopped at the process limit \(1024\)/);
    // The sleeps would hold it for 31 s: it was stopped well before.
    expect(took).toBeLessThan(30_000);
    expect(leftover(`sleep ${marker}`)).toBe(0);
  });

  // As root the limit is a cgroup (above); any other user gets RLIMIT_NPROC. Root can test both.
  it.skipIf(process.getuid?.() !== 0)('as another user the limit is RLIMIT_NPROC, and a fork bomb stops at it too', async () => {
    const marker = '27.1828';
    const a = await attack({
      // lindwyrm's own limit, not the sandbox's (the test above covers that one).
      configToml: 'sandbox = "off"\n',
      replies: [{ toolCalls: [{ name: 'bash', input: { command: `for i in $(seq 1500); do sleep ${marker} & done; wait; echo finished` } }] }, { text: 'done' }],
    });
    const nobody = 65534;
    const build = dirname(cli());
    await chmod(build, 0o755);
    for (const dir of [a.env.root, ...(await readdir(a.env.root, { recursive: true })).map((p) => join(a.env.root, p))]) await chmod(dir, 0o777);
    const child = spawn(process.execPath, [cli(), '-p', 'run it', '--allow', 'bash'], {
      cwd: a.env.project,
      env: a.env.env,
      uid: nobody,
      gid: nobody,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.resume();
    const status = await new Promise<number | null>((res) => child.on('close', res));
    expect(status, stderr).toBe(0);
    expect(a.results(1)[0]).toMatch(/\[stopped: it reached the limit of 1024 processes at once/);
    expect(a.results(1)[0]).toMatch(/fork: (retry: )?Resource temporarily unavailable/);
    expect(leftover(`sleep ${marker}`)).toBe(0);
  });

  it('an ordinary command with a few hundred processes is not stopped', async () => {
    const a = await attack({
      replies: [{ toolCalls: [{ name: 'bash', input: { command: 'for i in $(seq 200); do sleep 0.5 & done; wait; echo all-done' } }] }, { text: 'done' }],
    });
    const r = await a.run(['-p', 'run it', '--allow', 'bash']);
    expect(r.status).toBe(0);
    expect(a.results(1)[0]).toMatch(/all-done\n\[exit code 0\]/);
  });
});

describe('recursion: lwyrm started from its own bash tool', () => {
  it('refuses the full screen even with a terminal, says so in one-shot mode, and refuses past the nesting limit', async () => {
    const lwyrm = `${JSON.stringify(process.execPath)} ${JSON.stringify(cli())}`;
    const a = await attack({
      replies: [
        // script(1) gives it a terminal: without the marker it would open the full screen there.
        { toolCalls: [{ name: 'bash', input: { command: `script -qec ${JSON.stringify(lwyrm)} /dev/null; echo "exit=$?"` } }] },
        { toolCalls: [{ name: 'bash', input: { command: `${lwyrm} -p hello; echo "exit=$?"` } }] },
        { text: 'done' },
      ],
      // The built CLI lives in this checkout, which the sandbox's private /tmp hides when the
      // checkout is under /tmp (CI clones); the nesting marker is what this test is about.
      configToml: 'sandbox = "off"\n',
    });
    const r = await a.run(['-p', 'start another', '--allow', 'bash']);
    expect(r.status).toBe(0);
    const [fullScreen, oneShot] = a.results(2);
    expect(fullScreen).toMatch(/started from lindwyrm's own bash tool \(LINDWYRM_NESTED=1\), so the full screen is not opened inside the running session/);
    expect(fullScreen).toMatch(/exit=2/);
    expect(fullScreen).not.toContain('\x1b[?1049h');
    expect(oneShot).toMatch(/note: running inside lindwyrm's own bash tool \(LINDWYRM_NESTED=1\)/);

    const b = await attack({
      replies: [{ toolCalls: [{ name: 'bash', input: { command: `${lwyrm} -p hello; echo "exit=$?"` } }] }, { text: 'done' }],
      configToml: 'sandbox = "off"\n',
      prepare: (env) => {
        env.env['LINDWYRM_NESTED'] = '2';
      },
    });
    const r2 = await b.run(['-p', 'start another', '--allow', 'bash']);
    expect(r2.stderr).toMatch(/note: running inside lindwyrm's own bash tool \(LINDWYRM_NESTED=2\)/);
    expect(b.results(1)[0]).toMatch(/refusing to run: started 3 levels deep inside lindwyrm's own bash tool/);
    expect(b.results(1)[0]).toMatch(/exit=2/);
    // Only the outer run talked to the provider.
    expect(b.fake.requests).toHaveLength(2);
  });
});
