/**
 * pyright (the npm dev dependency) run as a language server over stdio, asked for
 * textDocument/references: the real checker the code map's Python answers are measured against.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

export interface LspLocation {
  /** Project-relative path. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
}

export interface PyrightClient {
  /** References to the name at (file, line, column 0-based), the declaration excluded. */
  references(file: string, line: number, column: number): Promise<LspLocation[]>;
  close(): Promise<void>;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** `extraPaths`: import roots besides the project root (a `src/` layout's `src`). */
export async function startPyright(root: string, opts: { extraPaths?: readonly string[]; timeoutMs?: number } = {}): Promise<PyrightClient> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const require = createRequire(import.meta.url);
  const server = join(dirname(require.resolve('pyright/package.json')), 'langserver.index.js');
  // pyright takes the interpreter's search paths, PYTHONPATH included, as import roots.
  const env = { ...process.env, ...(opts.extraPaths?.length ? { PYTHONPATH: opts.extraPaths.join(':') } : {}) };
  const child: ChildProcess = spawn(process.execPath, [server, '--stdio'], { cwd: root, env, stdio: ['pipe', 'pipe', 'ignore'] });
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let buffer = Buffer.alloc(0);
  const send = (message: object): void => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
    child.stdin!.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1]);
      if (buffer.length < headerEnd + 4 + length) return;
      const msg = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString()) as
        { id?: number; method?: string; result?: unknown; error?: { message: string } };
      buffer = buffer.subarray(headerEnd + 4 + length);
      if (msg.method !== undefined && msg.id !== undefined) {
        // Requests from the server (configuration, progress): answer with nothing in particular.
        const items = (msg as { params?: { items?: { section?: string }[] } }).params?.items ?? [];
        send({ id: msg.id, result: msg.method === 'workspace/configuration'
          ? items.map((i) => (i.section === 'python.analysis' ? { extraPaths: opts.extraPaths ?? [] }
            : i.section === 'python' ? { analysis: { extraPaths: opts.extraPaths ?? [] } } : {})) : null });
      } else if (msg.id !== undefined && pending.has(msg.id)) {
        const p = pending.get(msg.id)!;
        pending.delete(msg.id);
        if (msg.error) p.reject(new Error(msg.error.message));
        else p.resolve(msg.result);
      }
    }
  });
  const request = (method: string, params: unknown): Promise<unknown> => new Promise((resolve, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`pyright did not answer ${method} within ${timeoutMs} ms`));
    }, timeoutMs);
    pending.set(id, { resolve: (v) => { clearTimeout(timer); resolve(v); }, reject: (e) => { clearTimeout(timer); reject(e); } });
    send({ id, method, params });
  });
  const rootUri = pathToFileURL(root).href;
  await request('initialize', {
    processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: 'project' }],
    capabilities: { textDocument: { references: {} }, workspace: { configuration: true } },
  });
  send({ method: 'initialized', params: {} });
  const opened = new Set<string>();
  return {
    async references(file, line, column) {
      const uri = pathToFileURL(join(root, file)).href;
      if (!opened.has(uri)) {
        opened.add(uri);
        send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'python', version: 1, text: await readFile(join(root, file), 'utf8') } } });
      }
      const result = await request('textDocument/references', {
        textDocument: { uri }, position: { line: line - 1, character: column }, context: { includeDeclaration: false },
      }) as { uri: string; range: { start: { line: number } } }[] | null;
      const prefix = `${root.replace(/\/$/, '')}/`;
      return (result ?? []).map((r) => ({ file: fileURLToPath(r.uri).replace(prefix, ''), line: r.range.start.line + 1 }));
    },
    async close() {
      await request('shutdown', null).catch(() => undefined);
      send({ method: 'exit' });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => { child.kill(); resolve(); }, 3000);
        child.once('exit', () => { clearTimeout(timer); resolve(); });
      });
    },
  };
}
