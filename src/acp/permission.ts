/**
 * Every `confirm` the policy decides becomes `session/request_permission`: allow once, allow
 * always, reject. The answer goes back through the same gate as the full screen's y / a / n, so an
 * always-grant covers exactly what an [a]lways there would (src/policy/gate.ts decides its scope).
 */
import type { ApprovalDecision, ApprovalRequest, Approver } from '../policy/types.js';
import type { UpdateBridge } from './session-updates.js';
import { acpKind, locationsOf } from './tool-view.js';
import { ignoreError } from '../diagnostics/ignore-error.js';

export interface PermissionPeer {
  request(method: string, params: unknown): Promise<unknown>;
}

/** What [a]lways grants, in the words the editor shows on its button: the same grants as the full screen's. */
export function alwaysLabel(request: ApprovalRequest): string {
  if (request.kind === 'bash') {
    const grants = request.always?.grants.map((g) => (g.exact ? `${g.text} (exactly)` : g.text)) ?? [];
    return grants.length > 0 ? `Always allow ${grants.join(', ')} in this session` : 'Always allow commands like this in this session';
  }
  if (request.kind === 'mcp') return `Always allow ${request.tool} in this session`;
  return `Always allow ${request.kind === 'read' ? 'reading' : request.kind === 'delete' ? 'deleting' : 'writing'} files in this project for this session`;
}

export function permissionOptions(request: ApprovalRequest): { optionId: string; name: string; kind: string }[] {
  return [
    { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
    // Outside the project (or a file with other hard links) an always would only be a once.
    ...(request.alwaysGrants === false ? [] : [{ optionId: 'allow_always', name: alwaysLabel(request), kind: 'allow_always' }]),
    { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  ];
}

const DECISIONS: Readonly<Record<string, ApprovalDecision>> = { allow_once: 'yes', allow_always: 'always', reject_once: 'no' };

export function decisionOf(response: unknown): ApprovalDecision {
  const outcome = (response as { outcome?: { outcome?: unknown; optionId?: unknown } } | null)?.outcome;
  // The turn was cancelled while the question was open: stop, as q does.
  if (outcome?.outcome === 'cancelled') return 'quit';
  if (outcome?.outcome === 'selected' && typeof outcome.optionId === 'string') return DECISIONS[outcome.optionId] ?? 'no';
  return 'no';
}

export function createAcpApprover(opts: {
  peer: PermissionPeer;
  sessionId: () => string;
  bridge: UpdateBridge;
  projectRoot: string;
  /**
   * The call's proposed change as a diff (old and new text), when it can be worked out; `target`
   * is the real path the policy judged (links resolved), never the path as the model typed it.
   */
  proposedDiff?: (tool: string, input: unknown, target: string) => Promise<{ path: string; oldText: string | null; newText: string } | undefined>;
  log?: (line: string) => void;
}): Approver {
  return async (request) => {
    const call = opts.bridge.current();
    const diff = call && request.path ? await opts.proposedDiff?.(call.name, call.input, request.path).catch(ignoreError('prepare the diff preview', opts.log)) : undefined;
    const preview = diff
      ? [{ type: 'diff', ...diff }]
      : request.diff || request.command
        ? [{ type: 'content', content: { type: 'text', text: request.diff ?? `$ ${request.command ?? ''}` } }]
        : [];
    const toolCall = {
      toolCallId: call?.toolCallId ?? request.id,
      // An editor shows the title first: what the text hides goes there too.
      title: [`${request.summary} (${request.reason})`, request.titleNote, ...(request.flags ?? [])].filter((t) => t !== undefined).join(' — '),
      kind: acpKind(request.tool, request.kind),
      status: 'pending',
      ...(call ? { rawInput: call.input ?? {}, locations: locationsOf(call.name, call.input, opts.projectRoot) } : {}),
      ...(preview.length ? { content: preview } : {}),
    };
    try {
      const response = await opts.peer.request('session/request_permission', { sessionId: opts.sessionId(), toolCall, options: permissionOptions(request) });
      return decisionOf(response);
    } catch (err) {
      // A client that cannot ask is a no: nothing runs unapproved.
      opts.log?.(`acp: session/request_permission failed: ${err instanceof Error ? err.message : String(err)}`);
      return 'no';
    }
  };
}
