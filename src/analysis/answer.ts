import type { Conversation } from '../conversation/types';
import { parsePolicy, type Policy } from '../context/policy';
import { policyMessages, SummaryCache, type AnalysisModel } from './analyze';
import { ANSWER_MAX_TOKENS, greedyGenerate, stopIds, type GenerationStop } from './generate';

/**
 * The answer the model writes for turn `turn` under a policy: the context the policy gives it (up to
 * and including the current user message), then greedy decoding, streamed through onText.
 */
export async function generateAnswer(
  model: AnalysisModel,
  conversation: Conversation,
  policy: Policy | string,
  turn: number,
  opts: {
    maxTokens?: number;
    /** The text so far and how many tokens it is. */
    onText?: (text: string, tokens: number) => void;
    summaries?: SummaryCache;
    between?: () => Promise<boolean>;
    onStop?: (why: GenerationStop) => void;
  } = {},
): Promise<string> {
  const p = typeof policy === 'string' ? parsePolicy(policy) : policy;
  const { messages } = await policyMessages(model, conversation, p, turn, opts.summaries ?? new SummaryCache(model, conversation));
  const context = messages.slice(0, -1).map(({ role, content }) => ({ role, content }));
  const prompt = model.tokenizer.encode(model.tokenizer.render(context, true));
  const ids: number[] = [];
  await greedyGenerate(model.session, prompt, {
    maxTokens: opts.maxTokens ?? ANSWER_MAX_TOKENS,
    stopIds: stopIds(model),
    ...(opts.between && { between: opts.between }),
    ...(opts.onStop && { onStop: opts.onStop }),
    onToken: (id) => {
      ids.push(id);
      opts.onText?.(model.tokenizer.decode(ids, true), ids.length);
    },
  });
  return model.tokenizer.decode(ids, true).trim();
}

/** The conversation with the scored answer of `turn` replaced by `answer`. */
export function withAnswer(conversation: Conversation, turn: number, answer: string): Conversation {
  let seen = 0;
  return {
    messages: conversation.messages.map((m) => {
      if (m.role !== 'assistant') return m;
      seen++;
      return seen === turn ? { role: m.role, content: answer, generated: true } : m;
    }),
  };
}
