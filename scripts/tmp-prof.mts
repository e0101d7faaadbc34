import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectStore } from '../src/rewind/project-store.js';
import { scanProject } from '../src/rewind/project-scan.js';
const base = await mkdtemp(join(tmpdir(), 'lwp-'));
const project = join(base, 'p');
await writeFile(join(base, 'x'), '');
await mkdir(project);
await writeFile(join(project, '.gitignore'), 'node_modules/\n');
for (let d = 0; d < 200; d++) { const dir = join(project, 'src', `pkg${d % 10}`, `m${d}`); await mkdir(dir, { recursive: true }); for (let f = 0; f < 25; f++) await writeFile(join(dir, `f${f}.ts`), 'x'.repeat(3000)); }
const store = await ProjectStore.open({ dataDir: join(base, 'data'), projectRoot: project, maxBytes: 500 << 20 });
let t = performance.now(); await store.ensureBaseline(); console.log('baseline', performance.now() - t);
for (let i = 0; i < 5; i++) { t = performance.now(); await store.exclusive(() => store.refreshLocked()); console.log('refresh', (performance.now() - t).toFixed(1)); }
for (let i = 0; i < 5; i++) { t = performance.now(); let n = 0; await scanProject({ root: project, maxFileBytes: 1e9, maxPaths: 1e6 }, { entry: () => { n++; }, skip: () => {} }); console.log('scan only', (performance.now() - t).toFixed(1), n); }
for (let i = 0; i < 8; i++) { const c = process.cpuUsage(); t = performance.now(); await store.exclusive(() => store.refreshLocked()); const u = process.cpuUsage(c); console.log('refresh wall', (performance.now() - t).toFixed(1), 'cpu', ((u.user + u.system) / 1000).toFixed(1)); }
