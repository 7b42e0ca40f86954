/**
 * What a policy needs besides the conversation: the summaries (from the file, else generated once), the
 * filler, and the tokens-per-turn series they give (paper 1's Fig. 4), kept per conversation.
 */
import { selectTurn } from '../conversation/turns';
import type { Conversation } from '../conversation/types';
import { applyPolicy, SUMMARY_PROMPT, summariesNeeded, type ContextMessage, type PolicyInputs, type Summary } from '../context/apply';
import { CostSeries } from '../context/cost';
import { fillerText } from '../context/filler';
import { policySpec, type Policy } from '../context/policy';
import { asRenderer, encodeChat } from '../context/render';
import type { ChatTokenizer } from '../model/tokenizer/tokenizer';
import type { ModelSession } from '../runtime/ort-runtime';
import { greedyGenerate, stopIds } from './generate';

/** A model as the analysis uses it: a session and its tokenizer. */
export interface AnalysisModel {
  session: ModelSession;
  tokenizer: ChatTokenizer;
}

/** Summaries: from the file, else generated once per message with paper 1's prompt (greedy). */
export class SummaryCache {
  private readonly made = new Map<number, Summary>();
  constructor(
    private readonly model: AnalysisModel,
    private readonly conversation: Conversation,
  ) {}

  get(message: number): Summary | undefined {
    const m = this.conversation.messages[message]!;
    return m.summary !== undefined ? { text: m.summary, generated: false } : this.made.get(message);
  }

  async ensure(messages: number[], maxTokens = 48): Promise<void> {
    const tok = this.model.tokenizer;
    const stop = stopIds(this.model);
    for (const i of messages) {
      if (this.get(i)) continue;
      const prompt = tok.encode(tok.render([{ role: 'user', content: SUMMARY_PROMPT.replace('{response}', this.conversation.messages[i]!.content) }], true));
      const ids = await greedyGenerate(this.model.session, prompt, { maxTokens, stopIds: stop });
      this.made.set(i, { text: tok.decode(ids, true).trim() || '(empty summary)', generated: true });
    }
  }
}

function inputsFor(model: AnalysisModel, conversation: Conversation, summaries: SummaryCache): PolicyInputs {
  return {
    summaryOf: (m) => summaries.get(m),
    fillerOf: (m) => fillerText(model.tokenizer, model.tokenizer.encode(conversation.messages[m]!.content).length, m + 1),
  };
}

/**
 * What the model sees under a policy for scoring turn `turn` (current answer last), with any
 * summaries it needs generated first, and the inputs that made it (for the cost).
 */
export async function policyMessages(
  model: AnalysisModel,
  conversation: Conversation,
  p: Policy,
  turn: number,
  summaries: SummaryCache,
): Promise<{ inputs: PolicyInputs; messages: ContextMessage[] }> {
  const needed =
    p.kind === 'summary' || p.kind === 'sum' ? Array.from({ length: turn }, (_, k) => summariesNeeded(p, selectTurn(conversation, k + 1))).flat() : [];
  await summaries.ensure([...new Set(needed)]);
  const inputs = inputsFor(model, conversation, summaries);
  return { inputs, messages: applyPolicy(conversation, selectTurn(conversation, turn), p, inputs) };
}

/** Cost series kept per (tokenizer, conversation, summaries, policy): a sweep's turns share one. */
const costSeriesKept = new WeakMap<object, WeakMap<Conversation, WeakMap<SummaryCache, Map<string, CostSeries>>>>();
export function costSeriesFor(model: AnalysisModel, conversation: Conversation, summaries: SummaryCache, p: Policy): CostSeries {
  const byConv = costSeriesKept.get(model.tokenizer) ?? costSeriesKept.set(model.tokenizer, new WeakMap()).get(model.tokenizer)!;
  const bySummaries = byConv.get(conversation) ?? byConv.set(conversation, new WeakMap()).get(conversation)!;
  const byPolicy = bySummaries.get(summaries) ?? bySummaries.set(summaries, new Map()).get(summaries)!;
  const key = `${policySpec(p)}|${model.tokenizer.templateDate}`;
  const renderer = asRenderer(model.tokenizer);
  const make = () => new CostSeries(conversation, p, (m, g) => encodeChat(renderer, m, g), inputsFor(model, conversation, summaries));
  return byPolicy.get(key) ?? byPolicy.set(key, make()).get(key)!;
}
