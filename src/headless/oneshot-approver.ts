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

/** The answer that prints the whole text of a clipped approval. */
const WHOLE_TEXT = 'v';

/** `full`: the whole command and diff; otherwise long lines come clipped (request.clipped). */
export function formatApproval(request: ApprovalRequest, full = false): string {
  // Control characters in the text are named in the title: below they are shown as escapes.
  const title = request.titleNote !== undefined ? `${request.kind.toUpperCase()} requested (${request.titleNote})` : `${request.kind.toUpperCase()} requested`;
  const lines = [`  ${title}: ${request.summary}`];
  for (const flag of request.flags ?? []) lines.push(`    ! ${flag}`);
  const command = full ? request.command : (request.clipped?.command ?? request.command);
  const diff = full ? request.diff : (request.clipped?.diff ?? request.diff);
  if (request.path) lines.push(`    ${request.path}`);
  if (command) lines.push(...command.split('\n').map((l) => `    $ ${l}`));
  // With old and new line numbers, as the full screen's modal shows it.
  if (diff) lines.push(...numberedDiffLines(parseUnifiedDiff(diff)).map((l) => `    ${l}`));
  if (request.clipped !== undefined && !full) lines.push(`    [${request.clipped.note}; answer ${WHOLE_TEXT} to see the whole text]`);
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
      const whole = request.clipped !== undefined ? ` / [${WHOLE_TEXT}]iew whole text` : '';
      const prompt = (): void => {
        io.stderr.write(`  Allow? [y]es / [n]o / [a]lways (${request.kind === 'mcp' ? 'this tool' : request.kind}) / [q]uit${whole}: `);
      };
      rl.on('line', (line) => {
        const said = line.trim().toLowerCase();
        const decision = ANSWERS[said];
        if (decision) finish(decision);
        else {
          if (said === WHOLE_TEXT && request.clipped !== undefined) io.stderr.write(`\n${formatApproval(request, true)}`);
          prompt();
        }
      });
      // End of input is a no: nothing was approved.
      rl.on('close', () => finish('no'));
      prompt();
    });

  return {
    approver: async (request) => {
      if (io.interactive) return ask(request);
      const warned = [request.titleNote, ...(request.flags ?? [])].filter((w) => w !== undefined);
      io.stderr.write(
        `lwyrm: denied ${request.summary} (${request.reason})${warned.length > 0 ? ` [${warned.join('; ')}]` : ''}: ` +
          `stdin is not a terminal, so nothing can be approved. To allow it: ${describeAllowance(request)}.\n`,
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
