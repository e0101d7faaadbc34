/**
 * Approvals in one-shot mode: a plain prompt on stderr when stdin is a terminal; otherwise a
 * denial, with the whole command (escaped) on stderr, what would allow it, and a note for the model.
 *
 * Keys typed before the prompt opened never answer it: what is already waiting on stdin when it
 * opens is thrown away. On a terminal, raw mode is switched on first, which hands over whatever the
 * terminal still holds (whole lines and the one typed so far); that is read and dropped, and only
 * then is the question written — so nothing dropped can have been typed after it was on screen.
 */
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ApprovalDecision, ApprovalReply, ApprovalRequest, Approver } from '../policy/types.js';
import { numberedDiffLines, parseUnifiedDiff } from '../tools/numbered-diff.js';

export interface OneShotApprover {
  readonly approver: Approver;
  /** The note for the result of the call just denied without a terminal, once. */
  takeDenialNote(): string | undefined;
  /** Stops a question in progress (an interrupt) so stdin does not keep the process alive. */
  close(): void;
}

/**
 * How long raw mode's hand-over of what the terminal held is read (and dropped) before the
 * question is written. The bytes are already in the kernel: this is the event loop's turn, not
 * anyone's reaction time.
 */
export const TYPE_AHEAD_MS = 40;

export function describeAllowance(request: ApprovalRequest): string {
  if (request.kind === 'bash') return '--allow bash, or add the command to bash_allowlist in [policy] (or a [[policy.bash_rules]] entry)';
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
  for (const warning of [...(request.warnings ?? []), ...(request.flags ?? [])]) lines.push(`    ! ${warning}`);
  const command = full ? request.command : (request.clipped?.command ?? request.command);
  const diff = full ? request.diff : (request.clipped?.diff ?? request.diff);
  if (request.path) lines.push(`    ${request.path}`);
  if (command) lines.push(...command.split('\n').map((l) => `    $ ${l}`));
  // With old and new line numbers, as the full screen's modal shows it.
  if (diff) lines.push(...numberedDiffLines(parseUnifiedDiff(diff)).map((l) => `    ${l}`));
  if (request.clipped !== undefined && !full) lines.push(`    [${request.clipped.note}; answer ${WHOLE_TEXT} to see the whole text]`);
  lines.push(`    (${request.reason})`);
  const always = alwaysLine(request);
  if (always !== undefined) lines.push(`    ${always}`);
  return `${lines.join('\n')}\n`;
}

/** What a answers, said before it is pressed. */
function alwaysLine(request: ApprovalRequest): string | undefined {
  const preview = request.always;
  if (preview === undefined) return undefined;
  const grants = preview.grants.map((g) => (g.exact ? `${g.text} (exactly)` : g.text));
  const head = grants.length > 0 ? `a = allow for this session: ${grants.join(', ')}` : 'a = just this once (nothing here can be granted for the session)';
  return preview.refused.length > 0 ? `${head}; still asked: ${preview.refused.join('; ')}` : head;
}

const ANSWERS: Readonly<Record<string, ApprovalDecision>> = {
  y: 'yes',
  yes: 'yes',
  n: 'no',
  no: 'no',
  a: 'always',
  always: 'always',
  e: 'every',
  every: 'every',
  s: 'save',
  save: 'save',
  q: 'quit',
  quit: 'quit',
};

/** The other answers, on their own line above the prompt, so the prompt keeps its plain form. */
function otherAnswers(request: ApprovalRequest): string {
  const others = [
    ...(request.every === true ? ['e = every command this session (nothing is asked again)'] : []),
    ...(request.save !== undefined ? ['s = always, and save it as a rule in your config (shown first)'] : []),
    'n WORDS = no, and tell the model what to do instead',
  ];
  return `    also: ${others.join(' · ')}\n`;
}

function choices(request: ApprovalRequest, whole = ''): string {
  const what = request.kind === 'bash' ? 'as above' : request.kind === 'mcp' ? 'this tool' : request.kind;
  const always = request.alwaysGrants === false ? '[a]lways (just this once)' : `[a]lways (${what})`;
  return `  Allow? [y]es / [n]o / ${always} / [q]uit${whole}: `;
}

/**
 * Reads lines from a terminal in raw mode. What arrives before `ready` is called (after
 * TYPE_AHEAD_MS) was typed before the question was written: dropped.
 */
function rawLines(
  stdin: Readable & { setRawMode(mode: boolean): unknown; isRaw?: boolean },
  echo: Writable,
  handlers: { onLine: (line: string) => void; onEnd: () => void; ready: () => void },
): () => void {
  const { onLine, onEnd } = handlers;
  const wasRaw = stdin.isRaw === true;
  let accepting = false;
  let line = '';
  stdin.setRawMode(true);
  const timer = setTimeout(() => {
    accepting = true;
    handlers.ready();
  }, TYPE_AHEAD_MS);
  const onData = (chunk: Buffer | string): void => {
    // There before the question was on the screen: typed ahead, not an answer.
    if (!accepting) return;
    for (const ch of chunk.toString()) {
      if (ch === '\r' || ch === '\n') {
        echo.write('\n');
        const done = line;
        line = '';
        onLine(done);
      } else if (ch === '\x7f' || ch === '\b') {
        if (line !== '') {
          line = line.slice(0, -1);
          echo.write('\b \b');
        }
      } else if (ch === '\x03') {
        // Raw mode turns Ctrl+C into a byte: deliver it as the signal it is.
        echo.write('^C\n');
        process.kill(process.pid, 'SIGINT');
      } else if (ch === '\x04') {
        if (line === '') onEnd();
      } else if (ch >= ' ') {
        line += ch;
        echo.write(ch);
      }
    }
  };
  stdin.on('data', onData);
  stdin.resume();
  return () => {
    clearTimeout(timer);
    stdin.off('data', onData);
    stdin.setRawMode(wasRaw);
    stdin.pause();
  };
}

export function createOneShotApprover(io: { stdin: Readable; stderr: Writable; interactive: boolean }): OneShotApprover {
  let note: string | undefined;
  let active: Interface | undefined;
  let cancel: (() => void) | undefined;

  const ask = (request: ApprovalRequest): Promise<ApprovalReply> =>
    new Promise((resolve) => {
      // Whatever is already buffered was typed before this question existed.
      while (io.stdin.readable && io.stdin.read() !== null) {
        /* discarded */
      }
      const question = (): void => {
        io.stderr.write(`\n${formatApproval(request)}${otherAnswers(request)}`);
        prompt();
      };
      let settled = false;
      let stopReading: () => void = () => undefined;
      let confirmingSave = false;
      const finish = (reply: ApprovalReply): void => {
        if (settled) return;
        settled = true;
        active = undefined;
        cancel = undefined;
        stopReading();
        resolve(reply);
      };
      cancel = () => finish('quit');
      const whole = request.clipped !== undefined ? ` / [${WHOLE_TEXT}]iew whole text` : '';
      const prompt = (): void => {
        io.stderr.write(confirmingSave ? `  Append this to ${request.save?.file ?? 'your config'}? [y]es / [n]o: ` : choices(request, whole));
      };
      const onLine = (line: string): void => {
        const said = line.trim();
        if (confirmingSave) {
          confirmingSave = false;
          if (/^y(es)?$/i.test(said)) return finish('save');
          return prompt();
        }
        const words = /^(n|no)\s+(.+)$/i.exec(said);
        if (words) return finish({ decision: 'no', note: words[2] as string });
        if (said.toLowerCase() === WHOLE_TEXT && request.clipped !== undefined) {
          io.stderr.write(`\n${formatApproval(request, true)}`);
          return prompt();
        }
        const decision = ANSWERS[said.toLowerCase()];
        if (decision === 'save') {
          if (request.save === undefined) return prompt();
          io.stderr.write(`\n${request.save.block.replace(/^/gm, '    ')}\n`);
          confirmingSave = true;
          return prompt();
        }
        if (decision === 'every' && request.every !== true) return prompt();
        if (decision) return finish(decision);
        prompt();
      };
      const tty = io.stdin as Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
      if (tty.isTTY === true && typeof tty.setRawMode === 'function') {
        // The question is written once what the terminal held has been dropped.
        stopReading = rawLines(tty as Readable & { setRawMode(mode: boolean): unknown }, io.stderr, { onLine, onEnd: () => finish('no'), ready: question });
        return;
      }
      const rl = createInterface({ input: io.stdin, terminal: false });
      active = rl;
      stopReading = () => rl.close();
      rl.on('line', onLine);
      // End of input is a no: nothing was approved.
      rl.on('close', () => finish('no'));
      question();
    });

  return {
    approver: async (request) => {
      if (io.interactive) return ask(request);
      // The whole command, line by line (each escaped), not just the summary's first line.
      const body = request.command !== undefined ? `\n${request.command.split('\n').map((l) => `    $ ${l}`).join('\n')}` : '';
      const warned = [request.titleNote, ...(request.flags ?? [])].filter((w) => w !== undefined);
      io.stderr.write(
        `lwyrm: denied ${request.summary} (${request.reason})${warned.length > 0 ? ` [${warned.join('; ')}]` : ''}: stdin is not a terminal, so nothing can be approved. ` +
          `To allow it: ${describeAllowance(request)}.${body}\n`,
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
