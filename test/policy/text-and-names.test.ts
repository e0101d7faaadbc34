/**
 * The pure judgements behind issue 18's defences, on many more cases than the CLI tests run:
 * which names are secret-shaped, instruction or build files, which words mix look-alike scripts,
 * what hidden text an instruction file holds, and where a file stops being UTF-8.
 */
import { describe, expect, it } from 'vitest';
import { scanHiddenText } from '../../src/agent/hidden-text.js';
import { firstInvalidUtf8 } from '../../src/config/utf8-check.js';
import { clipLongLines, controlSummary } from '../../src/policy/approval-notes.js';
import { buildToolOfCommand, buildToolsOf } from '../../src/policy/build-files.js';
import { redactGitConfig } from '../../src/policy/git-config-redact.js';
import { isInstructionFile } from '../../src/policy/instruction-files.js';
import { mixedScriptFlags } from '../../src/policy/mixed-script.js';
import { secretFilePattern } from '../../src/policy/secret-files.js';

const root = '/home/me/shop';

describe('secret-shaped names', () => {
  it.each(['.env', '.env.local', '.ENV.production', 'config/.env', 'certs/server.pem', 'tls.key', 'id_rsa', 'id_ed25519', 'keys/id_deploy', '.npmrc', '.netrc', '.git-credentials', '.pypirc', 'home/.aws/credentials', '.docker/config.json', '.kube/config', 'store.p12'])(
    '%s is secret-shaped',
    (name) => expect(secretFilePattern(`${root}/${name}`)).toBeDefined(),
  );
  it.each(['id_rsa.pub', 'src/id_utils.py', 'keyboard.ts', 'environment.ts', 'README.md', 'package.json', '.aws/config', 'monkey.keynote.txt'])('%s is not', (name) =>
    expect(secretFilePattern(`${root}/${name}`)).toBeUndefined(),
  );
});

describe('instruction and build files', () => {
  it.each(['AGENTS.md', 'sub/dir/AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'LINDWYRM.md', '.cursorrules', '.cursor/rules/x.mdc', '.github/copilot-instructions.md', '.clinerules/a.md', '.windsurfrules', 'AGENTS.override.md', '.github/chatmodes/review.chatmode.md'])(
    '%s is an instruction file',
    (name) => expect(isInstructionFile(`${root}/${name}`, root)).toBe(true),
  );
  it.each(['README.md', 'docs/agents.txt', 'src/claude.ts', '.github/workflows-notes.md'])('%s is not', (name) => expect(isInstructionFile(`${root}/${name}`, root)).toBe(false));

  it('maps build files to the tools that run them, and commands to their tool', () => {
    expect(buildToolsOf(`${root}/package.json`).map((t) => t.label)).toEqual(['npm']);
    expect(buildToolsOf(`${root}/mk/rules.mk`).map((t) => t.label)).toEqual(['make']);
    expect(buildToolsOf(`${root}/app/build.gradle.kts`).map((t) => t.label)).toEqual(['Gradle']);
    expect(buildToolsOf(`${root}/src/main.ts`)).toEqual([]);
    expect(buildToolOfCommand('npm test')?.label).toBe('npm');
    expect(buildToolOfCommand('node --run test')?.label).toBe('npm');
    expect(buildToolOfCommand('./gradlew build')?.label).toBe('Gradle');
    expect(buildToolOfCommand('python3 -m pytest')?.label).toBe('Python');
    expect(buildToolOfCommand('cargo build --release')?.label).toBe('cargo');
    expect(buildToolOfCommand('node script.js')).toBeUndefined();
    expect(buildToolOfCommand('ls')).toBeUndefined();
  });
});

describe('mixed scripts', () => {
  it('flags look-alike letters and compatibility forms in one word', () => {
    expect(mixedScriptFlags('curl https://g\u0456thub.com/x')[0]).toMatch(/mixed scripts in "g\u0456thub\.com": "\u0456" \(U\+0456\) is Cyrillic, among Latin letters/);
    expect(mixedScriptFlags('g\u03bf\u03bfgle.com')[0]).toMatch(/Greek/);
    expect(mixedScriptFlags('cat \ufb01le.txt')[0]).toMatch(/"\ufb01le\.txt" holds "\ufb01" \(U\+FB01\), which reads as "fi"/);
    expect(mixedScriptFlags('echo \uff47it')[0]).toMatch(/reads as "g"/);
  });
  it('leaves single-script words and ordinary mixes alone', () => {
    expect(mixedScriptFlags('echo привет мир && git status')).toEqual([]);
    expect(mixedScriptFlags('日本語のテキストとカタカナ')).toEqual([]);
    expect(mixedScriptFlags('Vue组件 and café naïve')).toEqual([]);
    expect(mixedScriptFlags('plain ascii only')).toEqual([]);
  });
  it('names at most a few words', () => {
    const many = Array.from({ length: 9 }, (_, i) => `w${i}\u0430rd`).join(' ');
    const flags = mixedScriptFlags(many);
    expect(flags).toHaveLength(6);
    expect(flags.at(-1)).toBe('and 4 more words like these');
  });
});

describe('approval text', () => {
  it('names control characters, but not CRLF line ends', () => {
    expect(controlSummary('a\x1b[2Jb\x1bc\u202ed')).toBe('ESC ×2, RLO');
    expect(controlSummary('line one\r\nline two\r\n')).toBe('');
    expect(controlSummary('lone\rreturn')).toBe('CR');
  });
  it('clips a long line keeping its head and its tail', () => {
    const line = `${'a'.repeat(300)}MIDDLE${'b'.repeat(300)}END`;
    const { text, clipped, longest } = clipLongLines(`short\n${line}`);
    expect(clipped).toBe(1);
    expect(longest).toBe(line.length);
    expect(text.startsWith(`short\n${'a'.repeat(240)} …[`)).toBe(true);
    expect(text.endsWith('END')).toBe(true);
    expect(text).not.toContain('MIDDLE');
  });
});

describe('hidden text and encodings', () => {
  it('removes tag characters and names what was hidden', () => {
    const tags = [...'run rm'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const report = scanHiddenText(`hello${tags}\u200b world\u202e\n`);
    expect(report.text).toBe('hello\u200b world\u202e\n');
    expect(report.found).toBe('6 Unicode tag characters spelling hidden text "run rm", removed before the model reads the file, 1 zero-width character, 1 bidi control');
    expect(scanHiddenText('\ufeffplain\r\n')).toEqual({ text: 'plain\r\n', found: '' });
  });
  it('finds the first byte that is not UTF-8', () => {
    expect(firstInvalidUtf8(Buffer.from('plain café ✓ 😀', 'utf8'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xff]))).toBe(2);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0xaf]))).toBe(1); // overlong "/"
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0); // a surrogate
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xe2, 0x9c]))).toBe(1); // cut short
  });
  it('redacts git credentials but keeps ssh remotes readable', () => {
    const { text, redacted } = redactGitConfig('[remote "a"]\n\turl = https://u:p@host/x\n\turl = ssh://git@host/x\n[http]\n\tExtraHeader = Authorization: Bearer abc\n');
    expect(redacted).toBe(2);
    expect(text).toContain('url = https://[credentials redacted]@host/x');
    expect(text).toContain('url = ssh://git@host/x');
    expect(text).toContain('ExtraHeader = [redacted]');
  });
});
