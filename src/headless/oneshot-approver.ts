/**
 * Approvals in one-shot mode: a plain y / n / a / q prompt on stderr when stdin is a terminal;
 * otherwise a denial, with a line on stderr naming what would allow it and a note for the model.
 */
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../policy/types.js';
import { numberedDiffLines, parseUnifiedDiff } from '../tools/numbered-diff.js';

export interface OneShotApprover {
  readonly approver: Approver;
  /** The note for the result of the call just denied without a terminal, once. */
  takeDenialNote(): string | undefined;
  /** Stops a question in progress (an interrupt) so stdin does not keep the process alive. */
  close(): void;
}

export function describeAllowance(request: ApprovalRequest): string {
  if (request.kind === 'bash') return '--allow bash, or add the command to bash_allowlist in [policy]';
  if (request.kind === 'mcp') return `an allow pattern for ${request.tool} in its [[mcp.servers]] entry (allow = ["TOOL"])`;
  const where = request.path ? ` for ${request.path}` : '';
  return `--allow ${request.kind}, or a [[policy.rules]] entry with ${request.kind} = "allow"${where}`;
}

export function formatApproval(request: ApprovalRequest): string {
  const lines = [`  ${request.kind.toUpperCase()} requested: ${request.summary}`];
  if (request.path) lines.push(`    ${request.path}`);
  if (request.command) lines.push(...request.command.split('\n').map((l) => `    $ ${l}`));
  // With old and new line numbers, as the full screen's modal shows it.
  if (request.diff) lines.push(...numberedDiffLines(parseUnifiedDiff(request.diff)).map((l) => `    ${l}`));
  lines.push(`    (${request.reason})`);
  return `${lines.join('\n')}\n`;
}

const ANSWERS: Readonly<Record<string, ApprovalDecision>> = {
  y: 'yes',
  yes: 'yes',
  n: 'no',
  no: 'no',
  a: 'always',
  always: 'always',
  q: 'quit',
  quit: 'quit',
};

export function createOneShotApprover(io: { stdin: Readable; stderr: Writable; interactive: boolean }): OneShotApprover {
  let note: string | undefined;
  let active: Interface | undefined;
  let cancel: (() => void) | undefined;

  const ask = (request: ApprovalRequest): Promise<ApprovalDecision> =>
    new Promise((resolve) => {
      io.stderr.write(`\n${formatApproval(request)}`);
      const rl = createInterface({ input: io.stdin, terminal: false });
      active = rl;
      let settled = false;
      const finish = (decision: ApprovalDecision): void => {
        if (settled) return;
        settled = true;
        active = undefined;
        cancel = undefined;
        rl.close();
        resolve(decision);
      };
      cancel = () => finish('quit');
      const prompt = (): void => {
        io.stderr.write(`  Allow? [y]es / [n]o / [a]lways (${request.kind === 'mcp' ? 'this tool' : request.kind}) / [q]uit: `);
      };
      rl.on('line', (line) => {
        const decision = ANSWERS[line.trim().toLowerCase()];
        if (decision) finish(decision);
        else prompt();
      });
      // End of input is a no: nothing was approved.
      rl.on('close', () => finish('no'));
      prompt();
    });

  return {
    approver: async (request) => {
      if (io.interactive) return ask(request);
      io.stderr.write(
        `lwyrm: denied ${request.summary} (${request.reason}): stdin is not a terminal, so nothing can be approved. ` +
          `To allow it: ${describeAllowance(request)}.\n`,
      );
      note =
        'lindwyrm is running non-interactively (one-shot, stdin is not a terminal), so this action could not be ' +
        `approved and was not run. Do not retry it. Finish what you can without it, and tell the user it needs ` +
        `${describeAllowance(request)}.`;
      return 'no';
    },
    takeDenialNote() {
      const n = note;
      note = undefined;
      return n;
    },
    close() {
      cancel?.();
      active?.close();
    },
  };
}
