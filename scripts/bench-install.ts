/**
 * What a user installs: `npm pack` of a fresh build, `npm install -g` of the tarball into an empty
 * prefix (dev dependencies omitted, as the registry would), then the size of what landed and how
 * many packages. Checks that both installed commands answer --version and --help before reporting.
 * `.ci/run` runs it, so the figure is in its log; `npm run bench` puts it in the table.
 *
 *   node --import tsx scripts/bench-install.ts
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { reportFigure } from './bench-report.js';
import { packAndInstall } from '../test/support/packed-install.js';

const MB = 1e6;
const TARGET_MB = 45;
const TARGET_PACKAGES = 20;

const started = Date.now();
const install = await packAndInstall();
try {
  const version = execFileSync(install.bin.lwyrm, ['--version'], { encoding: 'utf8' }).trim();
  if (execFileSync(install.bin.lindwyrm, ['--version'], { encoding: 'utf8' }).trim() !== version) throw new Error('lindwyrm --version differs from lwyrm --version');
  if (!execFileSync(install.bin.lwyrm, ['--help'], { encoding: 'utf8' }).startsWith('Usage: lwyrm')) throw new Error('lwyrm --help printed no usage');
  const mb = (n: number): number => Math.round((n / MB) * 10) / 10;
  const count = install.packages.length;
  console.log(`Install of lindwyrm ${version} (npm pack + npm install -g into an empty prefix, ${((Date.now() - started) / 1000).toFixed(0)} s, load ${loadavg().map((n) => n.toFixed(1)).join(' ')})`);
  console.log(`  tarball                 ${mb(install.tarballBytes)} MB`);
  console.log(`  installed (file sizes)  ${mb(install.bytes)} MB in ${install.files} files`);
  console.log(`  installed (on disk, du) ${mb(install.diskBytes)} MB`);
  console.log(`  packages                ${count} (npm: added ${install.npmAdded ?? '?'}): ${install.packages.join(', ')}`);
  reportFigure({ figure: 'installed size on disk (npm install -g of the tarball)', median: mb(install.diskBytes), unit: 'MB', target: `< ${TARGET_MB} MB`, met: install.diskBytes / MB < TARGET_MB });
  reportFigure({ figure: 'installed packages (lindwyrm included)', median: count, unit: 'packages', target: `< ${TARGET_PACKAGES}`, met: count < TARGET_PACKAGES });
  reportFigure({ figure: 'packed tarball', median: mb(install.tarballBytes), unit: 'MB' });
} finally {
  await install.remove();
}
