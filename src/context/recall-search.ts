/**
 * Search over what a summary replaced: the archived turns, and the offloaded results their stubs
 * point at (a detail a summary dropped is as often in a tool result as in what was said). Plain
 * words (every one must appear in a turn; "quoted phrases" stay whole; case ignored) or a
 * /regex/flags. Each hit is an excerpt of numbered lines under its ref, so read_offloaded(ref,
 * offset, limit) opens the place in full. Pure: the caller loads the texts.
 */

export type RecallQuery =
  | { readonly kind: 'words'; readonly terms: readonly string[] }
  | { readonly kind: 'regex'; readonly regex: RegExp };

export interface RecallDoc {
  readonly ref: string;
  readonly text: string;
  /** For a snapshot: the archived turn whose stub points at it. */
  readonly from?: string;
}

export interface RecallLimits {
  /** Documents shown, best first. */
  readonly docs: number;
  /** Excerpts per document. */
  readonly excerpts: number;
  /** Characters of one shown line. */
  readonly lineChars: number;
}

export const RECALL_LIMITS: RecallLimits = { docs: 8, excerpts: 3, lineChars: 240 };

// Only these flags make a regex: "/usr/bin/env" is a path to look for, not a regex with flags "env".
const REGEX_FORM = /^\/(.+)\/([imsu]*)$/s;

/** Parses the tool's `query`; a string starting with / and ending with /flags is a regex. */
export function parseRecallQuery(query: string): RecallQuery | { readonly error: string } {
  const q = query.trim();
  if (!q) return { error: 'the query is empty: give words to look for, or a /regex/' };
  const regex = REGEX_FORM.exec(q);
  if (regex) {
    const flags = regex[2] ?? '';
    try {
      return { kind: 'regex', regex: new RegExp(regex[1]!, `${flags}g`) };
    } catch (err) {
      return { error: `not a valid regular expression: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
  const terms: string[] = [];
  for (const m of q.matchAll(/"([^"]+)"|(\S+)/g)) {
    const term = (m[1] ?? m[2] ?? '').trim().toLowerCase();
    if (term && !terms.includes(term)) terms.push(term);
  }
  return terms.length ? { kind: 'words', terms } : { error: 'the query has no words to look for' };
}

// A character class, an escape class, a quantified dot, an alternation of words, an anchor.
const REGEX_SIGNS = /\\[dDwWsSbB]|\[[^\]]+\]|\.[*+?]|\.\{\d|\w\|\w|^\^|[^\\]\$$|\(\?|\)[*+?]/;

/**
 * A query written as a bare pattern, without slashes (`port \d+`, `conn(ect|ection) refused`):
 * its words find nothing, so it is searched as a regex, case ignored. Undefined when it does not
 * read as a pattern or does not compile.
 */
export function bareRegex(query: string): RecallQuery | undefined {
  const q = query.trim();
  if (!REGEX_SIGNS.test(q)) return undefined;
  try {
    return { kind: 'regex', regex: new RegExp(q, 'gi') };
  } catch {
    return undefined;
  }
}

interface Hit {
  readonly index: number;
  readonly length: number;
  /** Which word it is (words), or 0 (regex). */
  readonly term: number;
}

function findHits(text: string, query: RecallQuery): Hit[] {
  const hits: Hit[] = [];
  if (query.kind === 'regex') {
    const re = new RegExp(query.regex.source, query.regex.flags);
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      hits.push({ index: m.index, length: m[0].length, term: 0 });
      if (m[0].length === 0) re.lastIndex++;
      if (hits.length >= 10_000) break;
    }
    return hits;
  }
  const lower = text.toLowerCase();
  query.terms.forEach((term, t) => {
    for (let i = lower.indexOf(term); i !== -1 && hits.length < 10_000; i = lower.indexOf(term, i + term.length)) {
      hits.push({ index: i, length: term.length, term: t });
    }
  });
  return hits.sort((a, b) => a.index - b.index);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 0-based line holding character `index`. */
function lineOf(starts: readonly number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function clip(line: string, column: number, max: number): string {
  // Control characters would let an excerpt repaint the terminal it is shown in.
  // eslint-disable-next-line no-control-regex
  const flat = line.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
  if (flat.length <= max) return flat;
  const start = Math.max(0, Math.min(column - Math.floor(max / 3), flat.length - max));
  return `${start > 0 ? '…' : ''}${flat.slice(start, start + max)}${start + max < flat.length ? '…' : ''}`;
}

export interface RecallMatch {
  readonly doc: RecallDoc;
  readonly hits: number;
  /** Distinct words found (words), or 1 (regex). */
  readonly found: number;
  readonly excerpts: readonly string[];
}

function matchDoc(doc: RecallDoc, query: RecallQuery, limits: RecallLimits): RecallMatch | undefined {
  const hits = findHits(doc.text, query);
  if (!hits.length) return undefined;
  const found = query.kind === 'words' ? new Set(hits.map((h) => h.term)).size : 1;
  const starts = lineStarts(doc.text);
  const lines = doc.text.split('\n');
  const windows: { from: number; to: number; column: number; line: number }[] = [];
  // The excerpts: around the first hits, merged where they touch, each a line of context either side.
  for (const hit of hits) {
    const line = lineOf(starts, hit.index);
    const last = windows.at(-1);
    // Touching or overlapping windows become one.
    if (last && line - 1 <= last.to + 1) {
      last.to = Math.min(lines.length - 1, Math.max(last.to, line + 1));
      continue;
    }
    if (windows.length >= limits.excerpts) break;
    windows.push({ from: Math.max(0, line - 1), to: Math.min(lines.length - 1, line + 1), column: hit.index - starts[line]!, line });
  }
  const excerpts = windows.map((w) => {
    const shown: string[] = [];
    for (let i = w.from; i <= w.to; i++) shown.push(`${String(i + 1).padStart(5)}  ${clip(lines[i]!, i === w.line ? w.column : 0, limits.lineChars)}`);
    return shown.join('\n');
  });
  return { doc, hits: hits.length, found, excerpts };
}

const refNumber = (ref: string): number => Number(ref.slice(4)) || 0;

/** Matching documents, best first: most words found, then most hits, then the newest. */
export function searchRecall(docs: readonly RecallDoc[], query: RecallQuery, limits: RecallLimits = RECALL_LIMITS): RecallMatch[] {
  const matches: RecallMatch[] = [];
  for (const doc of docs) {
    const m = matchDoc(doc, query, limits);
    if (m) matches.push(m);
  }
  const turnOf = (m: RecallMatch): number => refNumber(m.doc.from ?? m.doc.ref);
  return matches.sort((a, b) => b.found - a.found || b.hits - a.hits || turnOf(b) - turnOf(a) || refNumber(b.doc.ref) - refNumber(a.doc.ref));
}

/** The refs of offloaded results a text's stubs point at. */
export function stubRefs(text: string): string[] {
  return [...new Set([...text.matchAll(/\bref (off_\d{4,})\]|read_offloaded\("(off_\d{4,})"\)/g)].map((m) => m[1] ?? m[2]!))];
}

/** The tool's answer: what matched where, or why nothing did. */
export function formatRecall(query: RecallQuery, matches: readonly RecallMatch[], searched: number, limits: RecallLimits = RECALL_LIMITS): string {
  const wanted = query.kind === 'words' ? query.terms.length : 1;
  const complete = matches.filter((m) => m.found === wanted);
  const what = query.kind === 'regex' ? `/${query.regex.source}/` : query.terms.map((t) => JSON.stringify(t)).join(' ');
  if (!matches.length) return `No match for ${what} in ${searched} archived text${searched === 1 ? '' : 's'}. Try other words, fewer words, or a /regex/.`;
  const head: string[] = [];
  let shown: readonly RecallMatch[] = complete;
  if (!complete.length) {
    head.push(`No archived text has all of ${what}; these have some of them:`);
    shown = matches;
  } else {
    head.push(`${complete.length} archived text${complete.length === 1 ? '' : 's'} match ${what} (of ${searched} searched):`);
  }
  const body = shown.slice(0, limits.docs).map((m) => {
    const where = m.doc.from ? `${m.doc.ref} (a tool result in archived turn ${m.doc.from})` : `${m.doc.ref} (archived turn)`;
    return `${where}, ${m.hits} hit${m.hits === 1 ? '' : 's'}:\n${m.excerpts.join('\n   …\n')}`;
  });
  const more = shown.length > limits.docs ? [`… ${shown.length - limits.docs} more not shown: narrow the query.`] : [];
  const how = 'read_offloaded(ref) opens one in full; offset and limit (lines) open the place an excerpt is from.';
  return [...head, '', body.join('\n\n'), ...more, '', how].join('\n');
}
