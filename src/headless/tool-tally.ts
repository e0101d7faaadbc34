/**
 * The tool calls of a one-shot turn that did not do what was asked, for --json and the exit
 * status: denied calls (by the policy, or because nothing could be approved without a terminal)
 * and failed ones. A turn that tried to change something and had every such call denied did not do
 * its job, however politely the model's final answer says so.
 */
import type { EngineEvent } from '../agent/events.js';
import type { ToolCallStatus } from '../agent/state.js';
import type { ToolCallKind } from '../tools/types.js';

/** Kinds of call that change the project (or may: a command), as each tool declares its kind. */
const CHANGING: ReadonlySet<ToolCallKind> = new Set<ToolCallKind>(['write', 'delete', 'bash']);

export interface UnsuccessfulCall {
  readonly tool: string;
  /** The call as the transcript names it: "write_file notes.txt". */
  readonly call: string;
  readonly status: Extract<ToolCallStatus, 'denied' | 'error'>;
  readonly message: string;
}

export function createToolTally() {
  const started = new Map<string, { tool: string; call: string; changing: boolean }>();
  const unsuccessful: UnsuccessfulCall[] = [];
  /** The changing calls that were denied, as the transcript names them. */
  const deniedChanges: string[] = [];
  let changes = 0;
  return {
    onEvent(event: EngineEvent): void {
      if (event.type === 'tool.start') {
        started.set(event.blockId, { tool: event.name, call: event.title, changing: event.kind !== undefined && CHANGING.has(event.kind) });
      }
      if (event.type !== 'tool.end') return;
      const call = started.get(event.blockId);
      if (!call) return;
      if (call.changing) {
        changes++;
        if (event.status === 'denied') deniedChanges.push(call.call);
      }
      if (event.status === 'denied' || event.status === 'error') unsuccessful.push({ tool: call.tool, call: call.call, status: event.status, message: event.summary });
    },
    get unsuccessful(): readonly UnsuccessfulCall[] {
      return unsuccessful;
    },
    get denied(): number {
      return unsuccessful.filter((c) => c.status === 'denied').length;
    },
    /** Why the turn is not finished though the model stopped: every change it tried was denied. */
    allChangesDenied(): string | undefined {
      const n = deniedChanges.length;
      if (changes === 0 || n < changes) return undefined;
      const shown = deniedChanges.slice(0, 3).join(', ') + (n > 3 ? ', …' : '');
      return `Every change the model tried was denied (${n} call${n === 1 ? '' : 's'}: ${shown}); nothing was changed.`;
    },
  };
}

export type ToolTally = ReturnType<typeof createToolTally>;
