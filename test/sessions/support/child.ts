/** Runs a TypeScript helper in a real child Node process and waits on what it prints. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function startChild(script: string, args: readonly string[], stdin: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  const path = fileURLToPath(new URL(script, import.meta.url));
  return spawn(process.execPath, ['--import', 'tsx', path, ...args], { stdio: [stdin, 'pipe', 'pipe'] });
}

/** Resolves with the first stdout line matching; rejects if the child exits first. */
export function waitForLine(child: ChildProcess, match: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let stderr = '';
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      const hit = lines.find(match);
      if (hit !== undefined) {
        cleanup();
        resolve(hit);
      }
    };
    const onErr = (chunk: Buffer): void => {
      stderr += chunk.toString('utf8');
    };
    const onExit = (code: number | null): void => {
      cleanup();
      reject(new Error(`child exited (${code}) before printing the expected line\n${stderr}`));
    };
    const cleanup = (): void => {
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onErr);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onErr);
    child.on('exit', onExit);
  });
}

export function killAndWait(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
