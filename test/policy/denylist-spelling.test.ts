import { describe, expect, it } from 'vitest';
import { decideBash, matchDenylist } from '../../src/policy/bash-policy.js';
import { denylistWords } from '../../src/policy/bash-words.js';
import { invocationMatches, parseEntry, simpleCommands } from '../../src/policy/denylist-match.js';
import { abbreviationMeets, isOptionWord, optionTokens } from '../../src/policy/option-spelling.js';
import { makePolicy } from '../tools/make-config.js';

const deny = (entries: string[], command: string) => matchDenylist(command, entries);

describe('denylist: one option, many spellings', () => {
  it.each([
    'rm -rf build',
    'rm -fr build',
    'rm -r -f build',
    'rm -f -r build',
    'rm -Rf build',
    'rm -fR build',
    'rm -rfv build',
    'rm -vfr build',
    'rm --recursive --force build',
    'rm --force --recursive build',
    'rm -r --force build',
    'rm --recur --for build', // getopt abbreviations
    'rm build -rf',
    'rm -r build -f',
    'rm -r build other -f',
    'rm -r --interactive=never -f build',
    '/bin/rm -r -f build',
    'RM -r -f build', // macOS and Windows run rm for RM
    "r'm' -f -r build",
    'sudo rm -r -f build',
    'sudo -u root rm -fr build',
    'env FOO=1 rm -fr build',
    'command rm -fr build',
    'nice -n 5 rm -fr build',
    'timeout 5 rm -f -r build',
    'xargs rm -fr < list',
    'find . -name x -exec rm -r -f {} ;',
    'ls && rm -f -r build',
    'true; rm -Rf build',
    'echo $(rm -f -r build)',
    "sh -c 'rm -f -r build'",
    'bash -c "cd /tmp; rm -r -f x"',
    'rm -r "; " -f build', // a quoted separator does not end rm's arguments
    '{rm,-fr,build}', // brace expansion
    'rm${IFS}-r${IFS}-f build',
  ])('rm -rf denies %s', (command) => {
    expect(deny(['rm -rf'], command)).toBe('rm -rf');
  });

  it.each([
    'rm -r build', // not forced: the existing prompt decides
    'rm -f build',
    'rm -i build',
    'rm build',
    'rm -r -- -f', // after --, -f is a file name
    'rm -r build; ls -f', // -f belongs to ls
    'ls -f | rm -r x',
    'sudo -f rm -r x', // -f belongs to sudo
    'rm --interactive build',
    'rmdir -f -r x',
    'grm -rf x',
  ])('rm -rf lets through %s', (command) => {
    expect(deny(['rm -rf'], command)).toBeUndefined();
  });

  it('an operand in an entry must be there too, in order, wherever the options are', () => {
    const entry = ['rm -rf /'];
    for (const command of ['rm -rf /', 'rm -r -f /', 'rm / -fr', 'rm -fr --no-preserve-root /', 'rm -rf //', 'rm -rf /.', 'rm -f x / -r', 'sudo rm --recursive --force /']) {
      expect(deny(entry, command), command).toBe('rm -rf /');
    }
    for (const command of ['rm -rf /tmp/x', 'rm -rf build', 'rm -r /', 'rm -f /', 'rm -rf ./']) {
      expect(deny(entry, command), command).toBeUndefined();
    }
  });

  it('a folder is the same with or without its trailing slash', () => {
    expect(deny(['rm -rf ~'], 'rm -r -f ~/')).toBe('rm -rf ~');
    expect(deny(['rm -rf ~'], 'rm -fr ~//')).toBe('rm -rf ~');
    expect(deny(['rm -rf build/'], 'rm -rf build')).toBe('rm -rf build/');
    expect(deny(['rm -rf ~'], 'rm -rf ~/x')).toBeUndefined();
  });

  it('a line continuation inside a word joins it, as the shell does', () => {
    for (const command of ['r\\\nm -rf /', 'rm -r\\\nf /', 'rm -rf \\\n/', '/bin/r\\\nm -r -f /']) {
      expect(deny(['rm -rf /'], command), JSON.stringify(command)).toBe('rm -rf /');
    }
    expect(deny(['git push --force'], 'git pu\\\nsh -f')).toBe('git push --force');
    // A newline without the backslash still ends the command.
    expect(deny(['rm -rf /'], 'rm -r\nf /')).toBeUndefined();
  });

  it("a folder's every entry (/*) is the folder: rm -rf /* meets rm -rf /", () => {
    for (const command of ['rm -rf /*', 'rm -r -f //*', "rm -rf '/'*", 'sudo rm -fr /**']) {
      expect(deny(['rm -rf /'], command), command).toBe('rm -rf /');
    }
    expect(deny(['rm -rf ~'], 'rm -rf ~/*')).toBe('rm -rf ~');
    for (const command of ['rm -rf ./*', 'rm -rf *', 'rm -rf build/*', 'rm -rf /tmp/*']) {
      expect(deny(['rm -rf /'], command), command).toBeUndefined();
    }
    // Still a star as well: an entry for * meets every folder's star.
    for (const command of ['rm -rf *', 'rm -rf ./*', 'rm -fr build/*', 'rm -rf /*']) {
      expect(deny(['rm -rf *'], command), command).toBe('rm -rf *');
    }
    expect(deny(['rm -rf build'], 'rm -rf build/*')).toBe('rm -rf build');
  });

  it('a subcommand stays an operand: git push --force', () => {
    const entry = ['git push --force'];
    for (const command of ['git push --force', 'git push -f', 'git push origin main -f', 'git -C repo push -f origin', 'git push --forc', 'git push origin +main --force']) {
      expect(deny(entry, command), command).toBe('git push --force');
    }
    for (const command of ['git push', 'git push origin main', 'git fetch -f', 'git push --force-with-lease', 'git -f status; git push']) {
      expect(deny(entry, command), command).toBeUndefined();
    }
  });

  it('entry spellings are normalised as well: --recursive --force and -Rf mean -rf', () => {
    expect(deny(['rm --recursive --force'], 'rm -fr x')).toBe('rm --recursive --force');
    expect(deny(['rm -Rf'], 'rm -r -f x')).toBe('rm -Rf');
    expect(deny(['rm -R'], 'rm --recursive x')).toBe('rm -R');
  });

  it('letters keep their case where the program tells them apart', () => {
    // chmod -r removes read permission; only -R is recursive.
    expect(deny(['chmod -R 777'], 'chmod --recursive 777 x')).toBe('chmod -R 777');
    expect(deny(['chmod -R 777'], 'chmod 777 -vR x')).toBe('chmod -R 777');
    expect(deny(['chmod -R 777'], 'chmod -r 777 x')).toBeUndefined();
    expect(deny(['git clean -fdx'], 'git clean -x -d -f')).toBe('git clean -fdx');
    expect(deny(['git clean -fdx'], 'git clean -X -d -f')).toBeUndefined();
  });

  it('programs whose options are words after one dash compare them whole', () => {
    expect(deny(['find -delete'], 'find . -name x -delete')).toBe('find -delete');
    expect(deny(['find -delete'], 'find . -depth -type l -name e')).toBeUndefined();
    expect(deny(['find -delete'], 'find . -type d -name el')).toBeUndefined();
  });

  it('an unlisted program still gets clusters split and long options abbreviated', () => {
    expect(deny(['npm publish --force'], 'npm publish --forc')).toBe('npm publish --force');
    expect(deny(['tar -xzf'], 'tar -f a.tgz -zx')).toBe('tar -xzf');
    expect(deny(['tar -xzf'], 'tar -xf a.tgz')).toBeUndefined();
  });

  it('keeps the existing word-in-a-row behaviour, quoted arguments included', () => {
    expect(deny(['rm -rf'], 'echo "rm -rf"')).toBe('rm -rf');
    expect(deny(['curl'], 'ls curly')).toBeUndefined();
    expect(deny(['curl'], 'CURL x')).toBe('curl');
  });

  it('is a deny from decideBash even when bash=allow', () => {
    const settings = makePolicy({ bash: 'allow', bashDenylist: ['rm -rf /'] });
    expect(decideBash('sudo rm --force -R /', settings)).toMatchObject({ level: 'deny', reason: 'denylist: rm -rf /' });
    expect(decideBash('rm -R /tmp/x', settings).level).toBe('allow');
  });
});

describe('denylist helpers', () => {
  it('splits simple commands on unquoted separators only', () => {
    expect(simpleCommands("a -x; b 'c; d' && e | f")).toEqual(['a -x', " b 'c; d' ", ' e ', ' f']);
    expect(simpleCommands('a \\; b')).toEqual(['a \\; b']);
  });

  it('turns option words into canonical tokens', () => {
    expect(optionTokens('rm', '-Rfv')).toEqual(['-r', '-f', '-v']);
    expect(optionTokens('rm', '--recursive')).toEqual(['-r']);
    expect(optionTokens('rm', '--re')).toEqual(['-r']);
    expect(optionTokens('rm', '--no-preserve-root')).toEqual(['--no-preserve-root']);
    expect(optionTokens('chmod', '--re')).toEqual(['--re']); // recursive or reference: ambiguous
    expect(optionTokens('find', '-delete')).toEqual(['-delete']);
    expect(optionTokens('head', '-n5')).toEqual(['-n', '-5']);
    expect(optionTokens('rm', 'x')).toEqual([]);
  });
});

describe('denylist: long commands', () => {
  // The invocation-by-invocation reading, as it was first written: every occurrence of the
  // program judged with its own split of the words after it. Quadratic, but plainly right.
  const reference = (command: string, text: string): boolean => {
    const entry = parseEntry(text);
    if (entry === undefined) return false;
    const split = (args: readonly string[]) => {
      const options: string[] = [];
      const operands: string[] = [];
      let ended = false;
      for (const arg of args) {
        if (!ended && arg === '--') ended = true;
        else if (!ended && isOptionWord(arg)) options.push(arg);
        else operands.push(arg);
      }
      return { options, operands };
    };
    return simpleCommands(command).some((part) => {
      const words = denylistWords(part);
      return words.some((word, i) => {
        if (word.toLowerCase() !== entry.program) return false;
        const { options, operands } = split(words.slice(i + 1));
        let at = 0;
        for (const w of operands) if (at < entry.operands.length && w === entry.operands[at]) at++;
        const tokens = new Set(options.flatMap((o) => optionTokens(entry.program, o)));
        const carries = entry.options.every((t) => tokens.has(t) || options.some((o) => abbreviationMeets(entry.program, o, t)));
        return at === entry.operands.length && carries;
      });
    });
  };

  it('reads a command once, not once per occurrence of the program', () => {
    // Judged per occurrence, each of these took minutes (quadratic in the words); the bash
    // policy runs on every call, in the event loop, before anything is shown.
    const many = 30_000;
    expect(deny(['rm -rf /'], 'rm -- '.repeat(many))).toBeUndefined();
    expect(deny(['rm -rf /'], `${'rm x '.repeat(many)}-r -f /`)).toBe('rm -rf /');
    expect(deny(['git push --force'], `${'git push '.repeat(many)}`)).toBeUndefined();
  });

  it('reads a word with a long run of slashes once', () => {
    // A run of slashes not at the end of a word made the trailing-slash trim retry from each one.
    const slashes = '/'.repeat(300_000);
    expect(deny(['rm -rf /'], `rm -rf ${slashes}x`)).toBeUndefined();
    expect(deny(['rm -rf /'], `rm -rf ${slashes}x${slashes}*`)).toBeUndefined();
    expect(deny(['rm -rf /'], `rm -rf ${slashes}`)).toBe('rm -rf /');
  });

  it('decides as the per-invocation reading does, on many mixed commands', () => {
    const pieces = ['rm', 'RM', '-r', '-f', '-rf', '--force', '--rec', '--', '/', 'x', 'build', 'push', 'git', '-d', ';', '|', "'-r'", '"/"', 'sudo', '--no-preserve-root'];
    const entries = ['rm -rf /', 'rm -r', 'rm', 'git push --force', 'rm -f x /', 'rm -- -f', 'git -d push x'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % pieces.length;
    for (let n = 0; n < 1500; n++) {
      const command = Array.from({ length: 1 + (n % 12) }, () => pieces[next()]).join(' ');
      for (const entry of entries) {
        expect(invocationMatches(command, parseEntry(entry)!), `${entry} in ${command}`).toBe(reference(command, entry));
      }
    }
  });
});
