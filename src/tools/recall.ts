/**
 * recall: searches the turns a summary replaced (archived word for word with the session) and the
 * offloaded results their stubs point at. Offered from the first request of every session, so the
 * tool list never changes mid-session (see README, "Context and cost").
 */
import { bareRegex, formatRecall, parseRecallQuery, searchRecall, stubRefs, type RecallDoc } from '../context/recall-search.js';
import { arg } from './args.js';
import { defineTool, stringField } from './define-tool.js';
import { failure, success } from './results.js';

export const recallTool = defineTool({
  name: 'recall',
  description:
    'Search the earlier turns a summary replaced (archived word for word, tool results included). ' +
    'query: words that must all appear ("quoted phrase"; case ignored), or /regex/flags. Returns excerpts under a ref read_offloaded opens in full.',
  args: { query: arg.string('Words, or /regex/flags.') },
  kind: 'none',
  // Its excerpts are already bounded; offloading them would hand back a stub of a search.
  bulk: false,
  title: (input) => stringField(input, 'query'),
  subject: () => 'query',
  async run({ query: text }, ctx) {
    const query = parseRecallQuery(text);
    if ('error' in query) return failure(`recall: ${query.error}.`, `bad query: ${query.error}`, 'invalid_args');
    const turns = (await ctx.offload.archived?.()) ?? [];
    if (!turns.length) {
      return success(
        'Nothing is archived in this session yet: recall searches turns that a summary replaced, and no summary has been made, so the whole conversation is still in context.',
        'nothing archived yet',
      );
    }
    const docs: RecallDoc[] = [...turns];
    const seen = new Set<string>();
    for (const turn of turns) {
      for (const ref of stubRefs(turn.text)) {
        if (seen.has(ref)) continue;
        seen.add(ref);
        const snapshot = await ctx.offload.read(ref);
        if (snapshot !== undefined) docs.push({ ref, text: snapshot, from: turn.ref });
      }
    }
    let matches = searchRecall(docs, query);
    let used = query;
    let note = '';
    // A pattern written without its slashes: no text has all its words, the regex may match.
    const allWords = query.kind === 'words' && matches.some((m) => m.found === query.terms.length);
    const pattern = query.kind === 'words' && !allWords ? bareRegex(text) : undefined;
    if (pattern) {
      const retried = searchRecall(docs, pattern);
      if (retried.length) {
        [matches, used] = [retried, pattern];
        note = `(No text has those words; read as the regex /${text.trim()}/i instead.)\n`;
      }
    }
    let answer = note + formatRecall(used, matches, docs.length);
    const max = ctx.config.maxToolOutputChars;
    if (answer.length > max) answer = `${answer.slice(0, max)}\n[cut at ${max} characters: narrow the query]`;
    return success(answer, matches.length ? `${matches.length} archived text${matches.length === 1 ? '' : 's'} matched` : 'no match');
  },
});
