/**
 * Build files: what an allowlisted command runs. `npm test` is harmless until the agent rewrites
 * the test script in package.json; then it runs whatever the agent wrote, unseen. So once a build
 * file has changed in the session, a command of the tool that runs it is asked about again
 * (build-file-watch.ts), with the file named in the reason. Pure: names and programs only.
 */
import path from 'node:path';
import { foldCase } from './case-fold.js';

export interface BuildTool {
  /** What the reason calls it ('npm'). */
  readonly label: string;
  /** Program names (the basename of the command's first word, folded). */
  readonly programs: readonly string[];
  /** File names it runs or reads commands from (folded). */
  readonly names: readonly string[];
  /** Name endings that count too ('.mk'). */
  readonly suffixes?: readonly string[];
}

export const BUILD_TOOLS: readonly BuildTool[] = [
  {
    label: 'npm',
    programs: ['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx', 'corepack'],
    names: ['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', '.pnpmfile.mjs', 'bunfig.toml'],
  },
  { label: 'make', programs: ['make', 'gmake', 'bmake'], names: ['makefile', 'gnumakefile'], suffixes: ['.mk'] },
  { label: 'just', programs: ['just'], names: ['justfile', '.justfile'] },
  {
    label: 'Python',
    programs: ['python', 'python3', 'py', 'pip', 'pip3', 'pytest', 'py.test', 'tox', 'nox', 'uv', 'uvx', 'poetry', 'hatch', 'pdm', 'pipenv'],
    names: ['pyproject.toml', 'setup.py', 'setup.cfg', 'tox.ini', 'noxfile.py', 'pytest.ini', 'conftest.py'],
  },
  { label: 'cargo', programs: ['cargo'], names: ['cargo.toml', 'build.rs'] },
  { label: 'rake', programs: ['rake', 'bundle', 'bundler'], names: ['rakefile', 'rakefile.rb', 'gemfile'], suffixes: ['.rake'] },
  {
    label: 'Gradle',
    programs: ['gradle', 'gradlew'],
    names: ['gradlew', 'gradle.properties', 'gradle-wrapper.properties'],
    suffixes: ['.gradle', '.gradle.kts'],
  },
  { label: 'Maven', programs: ['mvn', 'mvnw'], names: ['pom.xml', 'mvnw'] },
  { label: 'Composer', programs: ['composer'], names: ['composer.json'] },
  { label: 'Deno', programs: ['deno'], names: ['deno.json', 'deno.jsonc'] },
];

/** `node --run script` runs package.json's scripts too. */
function programOf(command: string): string | undefined {
  const words = command.trim().split(/[ \t]+/);
  const first = words[0];
  if (first === undefined || first === '') return undefined;
  const program = foldCase(path.basename(first));
  if ((program === 'node' || program === 'nodejs') && words.some((w) => w === '--run' || w.startsWith('--run='))) return 'npm';
  return program;
}

/** The build tools whose files `realPath` is one of. */
export function buildToolsOf(realPath: string): BuildTool[] {
  const name = foldCase(path.basename(realPath));
  return BUILD_TOOLS.filter((t) => t.names.includes(name) || (t.suffixes ?? []).some((s) => name.endsWith(s)));
}

/** The build tool a command runs, judged by its program (a plain command: what an allowlist matches). */
export function buildToolOfCommand(command: string): BuildTool | undefined {
  const program = programOf(command);
  if (program === undefined) return undefined;
  return BUILD_TOOLS.find((t) => t.programs.includes(program));
}

/** Root-level names worth a look before and after each command (a shell edit leaves no other trace). */
export const ROOT_BUILD_NAMES: readonly string[] = [
  'package.json', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', 'bunfig.toml',
  'Makefile', 'makefile', 'GNUmakefile', 'justfile', 'Justfile', '.justfile',
  'pyproject.toml', 'setup.py', 'setup.cfg', 'tox.ini', 'noxfile.py', 'pytest.ini', 'conftest.py',
  'Cargo.toml', 'build.rs', 'Rakefile', 'Gemfile', 'build.gradle', 'build.gradle.kts', 'settings.gradle',
  'settings.gradle.kts', 'gradle.properties', 'gradlew', 'pom.xml', 'composer.json', 'deno.json', 'deno.jsonc',
];
