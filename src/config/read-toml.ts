/** Reads and parses one TOML file; a missing file is simply absent, anything else is a ConfigError. */
import { readFile, stat } from 'node:fs/promises';
import { parse, TomlError } from 'smol-toml';
import { ConfigError } from './errors.js';
import { firstInvalidUtf8 } from './utf8-check.js';
import type { Table } from './toml-reader.js';

/** Far above any real config; a bigger file is a mistake or a trap. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export async function readTomlFile(file: string): Promise<Table | undefined> {
  let text: string;
  try {
    // A cloned repository can make .lindwyrm.toml a link to /dev/zero, /dev/tty or a FIFO: reading
    // one would exhaust memory or wait forever, so only a regular file of sane size is opened.
    const info = await stat(file);
    if (!info.isFile() && !info.isDirectory()) {
      throw new ConfigError(`${file}: cannot read the config file (it is not a regular file)`, { file });
    }
    if (info.size > MAX_CONFIG_BYTES) {
      throw new ConfigError(`${file}: cannot read the config file (${info.size} bytes; the limit is ${MAX_CONFIG_BYTES})`, { file });
    }
    const bytes = await readFile(file);
    const bad = firstInvalidUtf8(bytes);
    if (bad >= 0) {
      const hex = bytes[bad]?.toString(16).padStart(2, '0') ?? '';
      const before = bytes.subarray(0, bad);
      const line = before.filter((b) => b === 0x0a).length + 1;
      throw new ConfigError(
        `${file}: not valid UTF-8: byte 0x${hex} at byte offset ${bad} (line ${line}); TOML files must be UTF-8, so re-save it as UTF-8`,
        { file },
      );
    }
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    const why = code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
    throw new ConfigError(`${file}: cannot read the config file (${why})`, { file });
  }
  // Editors on Windows save UTF-8 with a byte-order mark; TOML parsers read it as part of the first key.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  try {
    return parse(text) as Table;
  } catch (error) {
    if (error instanceof TomlError) {
      const reason = error.message.split('\n')[0]?.trim() ?? 'syntax error';
      throw new ConfigError(`${file}:${error.line}:${error.column}: invalid TOML: ${reason}`, { file });
    }
    throw new ConfigError(`${file}: invalid TOML: ${(error as Error).message}`, { file });
  }
}
