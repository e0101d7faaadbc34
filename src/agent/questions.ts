/**
 * Pending engine questions, held by one engine like its approvals: `ask` publishes a question and
 * returns a promise that `answer` settles with one of its choices. Without a view to answer
 * (`answerer`, one-shot and the protocol modes), the answerer decides at once.
 */
import type { EngineEvent } from './events.js';
import type { EngineQuestion } from './state.js';

export type QuestionInput = Omit<EngineQuestion, 'id'>;

export interface QuestionQueue {
  ask(question: QuestionInput): Promise<string>;
  answer(id: string, value: string): boolean;
  /** Settles every pending question with its `cancel` value (an interrupt). */
  cancelAll(): void;
}

export function createQuestionQueue(
  dispatch: (event: EngineEvent) => void,
  answerer?: (question: EngineQuestion) => string,
): QuestionQueue {
  const waiting = new Map<string, { question: EngineQuestion; settle: (value: string) => void }>();
  let counter = 0;

  const answer = (id: string, value: string): boolean => {
    const entry = waiting.get(id);
    // Only the question's own values count: a stray key cannot answer something else.
    if (!entry || !(entry.question.choices.some((c) => c.value === value) || value === entry.question.cancel)) return false;
    waiting.delete(id);
    dispatch({ type: 'question.resolved', id, value });
    entry.settle(value);
    return true;
  };

  return {
    ask(input) {
      const question: EngineQuestion = { ...input, id: `question-${++counter}` };
      if (answerer) return Promise.resolve(answerer(question));
      return new Promise<string>((settle) => {
        waiting.set(question.id, { question, settle });
        dispatch({ type: 'question.request', question });
      });
    },
    answer,
    cancelAll() {
      for (const [id, entry] of [...waiting]) answer(id, entry.question.cancel);
    },
  };
}
