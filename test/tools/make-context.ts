/** A ToolContext over a real temp project, with a scripted approver that records every request. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { Config, ToolKind } from '../../src/config/types.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/policy/types.js';
import type { ToolContext } from '../../src/tools/types.js';
import { makeConfig } from './make-config.js';
import { createSessionGrants } from '../../src/policy/session-grants.js';

export interface TestContext extends ToolContext {
  readonly asked: ApprovalRequest[];
  readonly output: string[];
  readonly changed: string[];
}

const created: string[] = [];

// Modules are isolated per test file, so each file that makes temp dirs removes its own.
afterAll(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

export async function makeTempDir(prefix = 'lwyrm-tools-'): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

export function makeContext(
  root: string,
  opts: {
    config?: Partial<Config>;
    answer?: ApprovalDecision | ((req: ApprovalRequest) => ApprovalDecision);
    readOnly?: boolean;
    preApproved?: ToolKind[];
    signal?: AbortSignal;
    offload?: Record<string, string>;
    vision?: boolean;
  } = {},
): TestContext {
  const asked: ApprovalRequest[] = [];
  const output: string[] = [];
  const changed: string[] = [];
  const answer = opts.answer ?? 'yes';
  return {
    config: makeConfig(root, opts.config),
    projectRoot: root,
    sessionId: 'test-session',
    signal: opts.signal ?? new AbortController().signal,
    readOnly: opts.readOnly ?? false,
    preApproved: new Set(opts.preApproved ?? []),
    sessionGrants: createSessionGrants(),
    approve: async (req) => {
      asked.push(req);
      return typeof answer === 'function' ? answer(req) : answer;
    },
    offload: { read: async (ref) => opts.offload?.[ref] },
    onOutput: (text) => output.push(text),
    onFileChanged: (p) => changed.push(p),
    vision: opts.vision ?? false,
    asked,
    output,
    changed,
  };
}
