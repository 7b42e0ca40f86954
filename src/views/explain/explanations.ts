/**
 * "What is this" for every panel, control and figure: the definition, the formula (its terms named by
 * category, so the view colours them as the heatmap does), where it comes from in the papers, and the
 * choice made where the papers are silent. Paper 1: "Do LLMs benefit from their own words?"; paper 2:
 * "Mitigating conversational inertia".
 */
import type { Category } from '../../metrics/categories';
import type { QuantLevel } from '../../model/precision/quantize';
import fidelity from '../../../docs/bench/quant-fidelity.json';

/** A formula as text pieces; a piece with a category is drawn in that category's colour. */
export type FormulaPiece = string | { text: string; category: Category | 'band' };

export interface Explanation {
  title: string;
  what: string;
  formula?: FormulaPiece[];
  source: string;
  /** Where the papers leave a choice open: what this tool does. */
  choice?: string;
}

const SHARE = (c: Category, name: string): Explanation => ({
  title: `${name} share`,
  what: `Of the attention the answer's tokens give, the part that falls on ${name === 'sink' ? 'the first 3 tokens of the sequence' : name === 'prior assistant' ? 'earlier assistant answers (or what a policy put in their place)' : name === 'current' ? 'the answer itself (its earlier tokens)' : `the ${name} tokens`}, averaged over the answer's tokens. The five shares add up to 1.`,
  formula: ['share(', { text: name, category: c }, ') = mean over answer tokens i of  Σ over tokens j in ', { text: name, category: c }, ' of A[i, j]'],
  source: 'paper 2, §3.4 (attention analysis)',
  choice:
    'Template tokens (role headers, end markers) count with the message they frame; the sink wins over any other category. Read from the final layer, mean of heads unless a head is chosen.',
});

/** The largest change q8 / q4 made to any share and to the diagonal on the trained demo models, as last measured (scripts/quant-fidelity.ts). */
function measuredChange(q: QuantLevel): string {
  const t = fidelity.summary[q].trained;
  return `${Math.max(...Object.values(t.shares)).toFixed(4)} in a share and ${t.diagonal.toFixed(4)} in the diagonal`;
}

export const EXPLANATIONS = {
  conversation: {
    title: 'the conversation',
    what: 'The multi-turn conversation scored: a system prompt, then turns, each a user message and the answer to it. Paste JSON ({"messages": [...]}), a list of messages, or "role: text" lines; errors are shown at their line and the text is kept.',
    source: 'the papers score such conversations turn by turn (paper 2, §3.4)',
  },
  precision: {
    title: 'the weight precision',
    what: `How the weights are held. "Its own" keeps the checkpoint's numbers (16- or 32-bit; a published AWQ checkpoint stays 4-bit as published). q8 and q4 reduce every linear layer, the output head and the embedding to 8 or 4 bits as the weights are read (blocks of 32, each with its own scale and zero point): about 4× (q8) and 7× (q4) less memory than 32-bit, so larger models fit. q4g128 uses blocks of 128, as published AWQ and GPTQ checkpoints do: about 16% smaller than q4, with coarser rounding. Quantized attention is close to the model's own, not equal: on the demo models, over their examples and three policies (measured ${fidelity.when}), q8 moved the figures by at most ${measuredChange('q8')}, q4 by at most ${measuredChange('q4')}, q4g128 by at most ${measuredChange('q4g128')}. To see the difference on your model, compare it with itself at full precision as the second model.`,
    source: "not in the papers (they read 16-bit 8B models); onnxruntime's MatMulNBits runs the 4- and 8-bit weights",
    choice: 'The choice is yours and is named on every figure, export and link; the plan says before any weight is read what fits at each precision.',
  },
  loaded: {
    title: 'what is loaded',
    what: 'The model in use and where it runs: the badge is the backend (WebGPU or wasm), with the reason when it is not WebGPU; below, its family, size, weights and how its attention is read.',
    source: 'design: the backend in use is always shown',
  },
  model: {
    title: 'the model',
    what: 'The language model that reads the conversation, running in this page (WebGPU or wasm). The demo model is a 1.7M-parameter chat model trained for this tool; any Llama-, Qwen-, Gemma- or Phi-family checkpoint from the Hub or from files can be loaded.',
    source: 'design: the tool builds its own ONNX graph so the attention is an output',
  },
  'compare-models': {
    title: 'compare models',
    what: "Up to three more models score the same conversation, turn and policy, side by side with the first (each in a worker of its own), each with its difference from model A; their sweeps over turns are drawn over model A's. The CPL-tuned twin of the demo model shows what training against inertia changes.",
    source: 'paper 2, §2.1 and Fig. 7 (base against CPL)',
  },
  policies: {
    title: 'context policies',
    what: 'Which earlier turns the model sees when it answers. Full: all of them. Window-W: the last W. Clip-H→L: the history grows, and when it would reach H turns it is cut back to the last L. Summary-H→L: as Clip, with a summary of each cut kept. AO: every user turn, each prior assistant answer replaced by a placeholder. AO-last: every turn whole except the prior assistant answer just before the question, replaced by the AO placeholder (with no line added to the system prompt). AO-second-last: the same on the answer before that, the control of AO-last: one placeholder, in another place. Cut-last: every turn whole, the answer just before the question cut to its first line (a second control of AO-last that keeps the opening facts of the answer). LT: the previous turn only. SUM: each prior assistant answer replaced by a one-sentence summary. DE: nothing. Filler: each prior assistant answer replaced by neutral text of the same length.',
    source:
      "paper 2, §2.2 (Window, Clip, Summary); paper 1, §2 and A.3 (AO, LT, SUM, DE); paper 1, §4.2 (Filler); AO-last is this tool's test of the previous answer alone, and AO-second-last and Cut-last its controls, none a paper's policy",
    choice: "Summaries come from the conversation file when it has them, else from the loaded model with paper 1's prompt.",
  },
  view: {
    title: 'the view',
    what: "Which turn is scored, which layer and head are read, and the diagonal's radius r. Generation lets the model write the answer under the policy, and the figures then score that answer.",
    source: 'paper 2, §3.4',
  },
  turn: {
    title: 'the scored turn',
    what: 'The assistant answer whose attention is read; the conversation after it is left out. "last" scores the final answer.',
    source: 'paper 2, §3.4 (one answer per pass, teacher-forced)',
  },
  layer: {
    title: 'the layer',
    what: 'The transformer layer whose attention is read. The papers read the final layer; small models let every layer be read.',
    source: 'paper 2, §3.4 (final layer)',
  },
  head: {
    title: 'the head',
    what: 'Each layer has several attention heads; the figures use their mean unless one head is chosen.',
    source: 'paper 2, §3.4 (mean over heads)',
  },
  radius: {
    title: 'the radius r',
    what: 'How far from token i of an prior assistant answer the diagonal ratio still counts attention: tokens i − r … i + r.',
    formula: ['j in [i − ', { text: 'r', category: 'band' }, ', i + ', { text: 'r', category: 'band' }, ']'],
    source: 'paper 2, §3.4 (r = 5)',
  },
  fullMatrix: {
    title: 'the full matrix',
    what: "A row for every token of the conversation (where each looks), not only the answer's: the whole attention matrix, for conversations up to a size.",
    source: 'paper 2, Fig. 3',
    choice: "The figures still read the answer's rows only.",
  },
  generate: {
    title: 'generation',
    what: "The model writes its own answer to the scored turn under the policy shown (greedy decoding), streamed; that answer replaces the file's and is scored.",
    source: 'paper 2, §3 (does the context change the action?)',
    choice: "Greedy decoding, up to a fixed number of tokens, stopping at the template's end marker.",
  },
  figures: {
    title: 'the figures',
    what: "Where the scored answer's attention goes: the five category shares, the diagonal ratio, and what the policy costs in tokens.",
    source: 'paper 2, §3.4 and Table 13; paper 1, Fig. 4 (tokens per turn)',
  },
  sink: SHARE('sink', 'sink'),
  system: SHARE('system', 'system'),
  user: SHARE('user', 'user'),
  prior: SHARE('prior', 'prior assistant'),
  current: SHARE('current', 'current'),
  diagonal: {
    title: 'diagonal ratio',
    what: "Token i of the answer reading token i of each prior assistant answer: the attention within r tokens of that position, summed over the prior assistant answers and averaged over the answer's tokens. High when the answer follows its prior assistant answers token by token.",
    formula: [
      'D = mean over answer tokens i of  Σ over ',
      { text: 'prior assistant answers p', category: 'prior' },
      '  Σ over |j − i| ≤ ',
      { text: 'r', category: 'band' },
      '  A[i, s_p + j]',
    ],
    source: 'paper 2, §3.4 (the diagonal inertia indicator; Table 13: 0.015–0.021 on 8B models)',
    choice: 'Offsets count from the first content token of each answer (template tokens excluded); only j inside the prior assistant answer counts.',
  },
  diagonalCopy: {
    title: 'copy-aligned diagonal',
    what: "The diagonal ratio with each prior assistant answer's band moved to where the answer copies it (the dashed band on the heatmap): when the answer repeats a run of a prior assistant answer at another offset (a copy that starts later), paper 2's band misses it and this one follows it. The two are equal when no copy is displaced. When one is, they part, and which is higher says what the attention follows: the copy-aligned one is higher when the answer's tokens read the tokens they copy; paper 2's is higher when they read the prior assistant answer at their own position, whatever they copy. A model that cannot read the text (the demo model on text unlike its training) may follow neither: then neither figure says much.",
    formula: [
      'D_copy = as D, with j in [i + δ_p − ',
      { text: 'r', category: 'band' },
      ', i + δ_p + ',
      { text: 'r', category: 'band' },
      '],  δ_p = where the longest run shared with ',
      { text: 'answer p', category: 'prior' },
      ' starts there − where it starts in the answer',
    ],
    source: 'this tool; paper 2, §3.4 defines the unshifted one (the default everywhere)',
    choice: "δ_p is 0 (paper 2's alignment) when the longest shared run is shorter than 4 tokens.",
  },
  copy: {
    title: 'copy measures',
    what: "Per prior assistant answer: its diagonal ratio; the longest run of tokens the answer copies from it word for word (and how many tokens later or earlier it sits in the answer, when the copy is displaced); the share of the answer's runs of 3 tokens found in it. They tell copying apart from attention: a long run with a low diagonal is a copy the attention does not follow token by token.",
    source: "this tool, beside paper 2's diagonal",
    choice: 'n-grams of 3 tokens, counted by position in the answer.',
  },
  tokens: {
    title: 'tokens scored',
    what: "The length of the rendered context plus the answer, in the model's own tokens.",
    source: "the model's tokenizer and chat template",
  },
  context: { title: 'tokens in context', what: 'The tokens the model reads before it answers this turn under the policy.', source: 'paper 1, Fig. 4' },
  prefilled: {
    title: 'tokens prefilled',
    what: 'Of the tokens in context, those that must be computed again when the model keeps what it computed for the previous turn (its KV cache): Clip can keep it between its cuts; Window cannot, since dropping the oldest turn moves every token after it.',
    source: 'paper 2, §2.2; paper 1, Fig. 4',
  },
  heatmap: {
    title: 'the heatmap',
    what: "One row per token of the answer, one column per token it can read; brighter means more attention. Coloured bands mark each key's category; the dashed band over each prior assistant answer is the r-band the diagonal ratio counts.",
    source: 'paper 2, Fig. 3 (attention maps)',
    choice: 'Colour on a square-root scale up to the 99.5th percentile outside the sink, so the sink does not wash the rest out.',
  },
  tokenView: {
    title: 'the tokens',
    what: 'The rendered conversation as the model reads it, token by token, in frames by message; each token is shaded by the attention it gets from the answer (or from the token pointed at).',
    source: 'paper 2, §3.4',
  },
  heads: {
    title: 'layers × heads',
    what: "The same figures as above (the diagonal ratio, the five shares) for every head of every layer, from one pass: each layer's attention is reduced to them inside the model's graph, so nothing of size layers × heads × tokens × tokens is kept. A bright cell is a head that reads the prior assistant answers along the diagonal, token i of the answer looking at token i of an earlier one: copying by position. The profile is each layer's head mean, the reading the figures above take at the final layer.",
    formula: ["grid[layer, head] = diagonal ratio of that head alone, over the answer's tokens, r as chosen"],
    source:
      'paper 2, §3.4: the final layer only, noting the trend is similar in other layers; induction heads (Olsson et al.), which copy by attending to earlier patterns',
    choice: 'Every layer and head of the scored answer under each policy shown; a compared model gets its own grid, and two grids their difference.',
  },
  off: {
    title: 'switching heads off',
    what: "A switched-off head's output is replaced before the layer's output projection (o_proj), in every pass: the figures, the grid, the chart over turns and the answers the model writes. Zero ablation replaces it with zeros; mean ablation with the head's own mean output over this conversation (every head on), which keeps the typical size of what the head writes and removes only what depends on the token. Its attention pattern itself is still computed and shown; what changes is what later layers receive. If the copying lives in a few heads, switching them off changes the diagonal downstream, and may change the answer.",
    formula: ["head output → 0 (zero ablation), or → its mean over the conversation's tokens (mean ablation), before o_proj"],
    source:
      "zero ablation as in head-pruning studies (Michel et al., 2019); mean ablation as in Wang et al. (2022); the choice of heads from paper 2's diagonal ratio",
    choice:
      "Mean ablation's reference is the conversation itself under Full with every head on (a single pasted conversation gives no other set). Heads are picked on model A; a compared model keeps every head on.",
  },
  charts: {
    title: 'the charts',
    what: 'By turn: every turn of the conversation scored under the first policy, the shares and the diagonal against the turn (paper 2, Fig. 2). Tokens per turn: the context each policy keeps, and what it must prefill (paper 1, Fig. 4).',
    source: 'paper 2, Fig. 2; paper 1, Fig. 4',
  },
  forward: {
    title: 'the raw forward pass',
    what: "The model's next-token probabilities after any text: a check that the model in the page computes what its reference implementation does.",
    source: "the model's own forward pass",
  },
} satisfies Record<string, Explanation>;

export type ExplainId = keyof typeof EXPLANATIONS;
