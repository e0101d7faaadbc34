#!/usr/bin/env node
/**
 * Composition root. --version and --help are answered from this file alone; everything else is
 * imported on demand, so a quick `lwyrm --version` never loads yargs, Ink, React or TypeScript.
 */
import { readFileSync } from 'node:fs';
import { helpText } from './cli/flags.js';
import { claimStdout } from './headless/protocol-stdout.js';

function packageVersion(): string {
  // package.json is the single source of truth; dist/cli.js and src/cli.ts both sit one level down.
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Flags before a "--" separator, so `lwyrm -- --help` stays a prompt. */
function optionWords(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end < 0 ? argv : argv.slice(0, end);
}

async function flush(stream: NodeJS.WriteStream): Promise<void> {
  await new Promise<void>((resolve) => stream.write('', () => resolve()));
}

/** A yes/no question on stderr, answered on the terminal; anything but y/yes is no. */
async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

async function cli(argv: readonly string[]): Promise<number> {
  const words = optionWords(argv);
  if (words.includes('--version')) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (words.includes('--help') || words.includes('-h')) {
    process.stdout.write(helpText());
    return 0;
  }
  const { main } = await import('./cli/main.js');
  return main(argv, {
    cwd: process.cwd(),
    env: process.env,
    interactive: Boolean(process.stdout.isTTY && process.stdin.isTTY),
    version: packageVersion(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    claimStdout: () => {
      const claim = claimStdout();
      return (text: string) => void claim.write(text);
    },
    readStdin: async () => {
      // `lwyrm -p -` typed at a terminal would otherwise sit there in silence.
      if (process.stdin.isTTY) process.stderr.write('lwyrm: reading the task from the terminal; end it with Ctrl+D\n');
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    ...(process.stdin.isTTY ? { confirm } : {}),
  });
}

const status = await cli(process.argv.slice(2));
await flush(process.stdout);
await flush(process.stderr);
// Exit explicitly: keep-alive sockets or a forgotten timer must not hold the shell.
process.exit(status);
