/**
 * `!command` typed in the input: the user runs a shell command themselves. It runs as the bash
 * tool runs it (the sandbox, the working folder, output capture and limits apply) but asks no
 * approval: the user typed it. A hard deny in the policy still refuses it. The command and its
 * output then stand in the conversation as a user message, so the next prompt can refer to them.
 */
import type { Message } from '../providers/types.js';
import type { TurnOutcome } from './state.js';
import { createLoopDetector } from './loop-detector.js';
import { runToolCalls, type ToolCallsEnv } from './tool-calls.js';

export type UserShellEnv = Omit<ToolCallsEnv, 'loops' | 'loopWindow'> & { readonly history: Message[] };

/** The user message the command and its output become. */
export function shellMessageText(command: string, output: string, failed: boolean): string {
  return `The user ran this shell command themselves${failed ? ' (it failed)' : ''}:\n$ ${command}\n${output}`;
}

export async function runUserShell(command: string, env: UserShellEnv): Promise<TurnOutcome> {
  const toolContext: ToolCallsEnv['toolContext'] = (signal, onOutput) => ({
    ...env.toolContext(signal, onOutput),
    // Typed by the user: what would be asked is allowed; what the policy denies stays denied.
    approve: () => Promise.resolve('yes'),
  });
  const call = { type: 'tool_use' as const, id: 'user-shell', name: 'bash', input: { command } };
  const { results } = await runToolCalls({ ...env, toolContext, loops: createLoopDetector(0), loopWindow: 0 }, [call], { count: 0 });
  const result = results[0]!;
  const text = shellMessageText(command, result.content, result.isError === true);
  const last = env.history.at(-1);
  if (last?.role === 'user') env.history[env.history.length - 1] = { role: 'user', content: [...last.content, { type: 'text', text }] };
  else env.history.push({ role: 'user', content: [{ type: 'text', text }] });
  if (env.signal.aborted) return { status: 'interrupted', result: '', detail: 'Interrupted by the user.', steps: 0 };
  return { status: 'finished', result: '', steps: 0 };
}
