// A sample code map plugin for INI files: each [section] is a namespace, each key a property.
// Copy it to <project>/.lindwyrm/plugins/ (trusted projects only) or name it in the user config:
//   plugins = ["~/lindwyrm-plugins/lindwyrm-plugin-ini.js"]
// See docs/PLUGINS.md for the interface.

/** @type {import('lindwyrm/src/codemap/types').LanguagePlugin} */
export const plugin = {
  name: 'ini',
  version: '1',
  extensions: ['.ini', '.cfg'],

  indexFile(path, source) {
    const symbols = [];
    const edges = [];
    let section;
    const lines = source.split('\n');
    lines.forEach((raw, i) => {
      const line = raw.trim();
      const header = /^\[([^\]]+)\]$/.exec(line);
      if (header) {
        section = { name: header[1], kind: 'namespace', startLine: i + 1, endLine: i + 1, exported: true, signature: line };
        symbols.push(section);
        return;
      }
      const pair = /^([\w.-]+)\s*=\s*(.*)$/.exec(line);
      if (!pair) return;
      const [, key, value] = pair;
      if (section) section.endLine = i + 1;
      symbols.push({
        name: key, kind: 'property', startLine: i + 1, endLine: i + 1, exported: true,
        signature: `${key} = ${value.slice(0, 60)}`, ...(section ? { container: section.name } : {}),
      });
      // `${other.key}` interpolation is a reference to another section's key.
      for (const ref of value.matchAll(/\$\{([\w.-]+)\}/g)) {
        edges.push({ from: section ? `${section.name}.${key}` : key, to: ref[1], kind: 'references', line: i + 1 });
      }
    });
    return { symbols, edges, imports: [] };
  },
};
