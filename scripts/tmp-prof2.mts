import { lstatSync, readdirSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import ignore from 'ignore';
const project = '/tmp/lwbench/p2';
rmSync(project, { recursive: true, force: true });
for (let d = 0; d < 200; d++) { const dir = join(project, 'src', `pkg${d % 10}`, `m${d}`); mkdirSync(dir, { recursive: true }); for (let f = 0; f < 25; f++) writeFileSync(join(dir, `f${f}.ts`), 'x'.repeat(3000)); }
const ig = ignore().add('node_modules/\n*.log\n');
function walk(useIgnore: boolean, doStat: boolean) { let n = 0; const st = ['']; while (st.length) { const rel = st.pop()!; const abs = rel ? project + '/' + rel : project; for (const e of readdirSync(abs, { withFileTypes: true })) { const c = rel ? rel + '/' + e.name : e.name; if (useIgnore && ig.ignores(e.isDirectory() ? c + '/' : c)) continue; if (doStat) lstatSync(abs + '/' + e.name); n++; if (e.isDirectory()) st.push(c); } } return n; }
for (const [a, b] of [[false, false], [true, false], [false, true], [true, true]] as const) {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) { const t = performance.now(); walk(a, b); times.push(performance.now() - t); }
  times.sort((x, y) => x - y);
  console.log(`ignore=${a} stat=${b}`, times.map((x) => x.toFixed(0)).join(' '));
}
