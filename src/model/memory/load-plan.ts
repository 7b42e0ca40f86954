import type { ModelSpec } from '../config/config';
import { computeBytes } from '../precision/compute-dtype';
import { estimatePass, tensorLimitText, type BackendLimits } from './memory';
import { isQuantLevel, QUANTS, quantizedBytes, schemeOf, SLICE_ROWS, type Quant, type QuantLevel, type QuantScheme } from '../precision/quantize';
import { tensorPlan } from '../checkpoint/weights';

/**
 * The memory a load will take on each backend, decided from config.json and the safetensors headers
 * before any weight is fetched. The session overheads are measured (`npm run rehearse`, docs/models.md):
 * onnxruntime-web's wasm heap holds the fp32 weights plus ~10% (its arena, the graph), and prepacking
 * the linear layers' weights for its matrix kernel adds ~55% more (measured on Qwen2.5-0.5B's shape:
 * 6.2 bytes per parameter with it, 4.4 without, 2.4 with half-precision matrices).
 */
export type WeightStorage = 'compute' | 'half' | QuantLevel;

export interface BackendPlan {
  backend: BackendLimits['backend'];
  /** How the graph holds the weights: widened to the compute dtype at load, or half precision widened per pass. */
  storage: WeightStorage;
  /** onnxruntime's prepacking of linear-layer weights (wasm, native): faster, but a second copy. */
  prepack: boolean;
  /** Bytes the weights take as the session holds them. */
  weights: number;
  /** Bytes beyond the weights: onnxruntime's own, prepacked copies, one planned pass. */
  overhead: number;
  /** What the session holds between passes (weights and onnxruntime's own): each pass's memory check starts from it. */
  held: number;
  /** Bytes the page holds besides while the session is created (the files' bytes read by a browser, one widened tensor). */
  transient: number;
  /** The largest single tensor (WebGPU keeps each in one buffer). */
  largestTensor: number;
  /** null: it fits. Otherwise why not. */
  problem: string | null;
  /** The longest pass that fits beside the weights (explicit attention holds a layer's scores three times). */
  maxTokens: number | null;
}

export interface LoadPlanInput {
  spec: ModelSpec;
  /** The dtype of each tensor, from the safetensors headers. */
  dtypes: Map<string, string>;
  /** The page (or process) holds every tensor's file bytes until the session is created (a browser's reads); false when they are read as onnxruntime copies them (a file on disk). */
  holdsFileBytes: boolean;
  /** The pass the plan makes room for. */
  plannedTokens: number;
  computeDtype: 'fp32' | 'fp16';
  /** The precision the person chose (default 'none': the checkpoint's own, widened or kept in half). */
  quant?: Quant;
}

const gib = (n: number) => `${(n / 2 ** 30).toFixed(2)} GiB`;
/**
 * Prepacking costs ~55% more memory for ~7% speed (Qwen2.5-0.5B's shape on wasm): wasm, whose heap is
 * 4 GiB, prepacks only models of at most this many fp32 weight bytes; native prepacks whatever fits.
 */
const WASM_PREPACK_MAX_BYTES = 256 * 2 ** 20;
const SESSION_FIXED = 64 * 2 ** 20;
/** The most a wasm heap overshoots what it needs when it grows (Emscripten's geometric step is capped at 96 MiB). */
const WASM_GROWTH = 96 * 2 ** 20;
/** The shortest pass a plan must leave room for, to fit at all. */
const MIN_TOKENS = 128;

/** The group size of a matrix the dtypes map marks as published AWQ ("AWQ:128"), else null. */
const publishedGroup = (dtype: string | undefined): number | null => (dtype?.startsWith('AWQ:') ? Number(dtype.slice(4)) : null);

/** A tensor's dtype as the plan reads it: packed AWQ matrices as "AWQ:<group>". */
export const planDtype = (t: { dtype: string; packed?: { groupSize: number } }): string => (t.packed ? `AWQ:${t.packed.groupSize}` : t.dtype);

/** The weights' bytes under each storage, and the largest single tensor of each. */
interface Tally {
  compute: number;
  half: number;
  file: number;
  largest: number;
  largestHalf: number;
  quantized: number;
  largestQuantized: number;
}

/** Every tensor of the checkpoint as each storage would hold it (published AWQ matrices packed at every precision). */
function tally(input: LoadPlanInput, scheme: QuantScheme | null): Tally {
  const el = computeBytes(input.computeDtype);
  const t0: Tally = { compute: 0, half: 0, file: 0, largest: 0, largestHalf: 0, quantized: 0, largestQuantized: 0 };
  for (const t of tensorPlan(input.spec)) {
    const n = t.shape.reduce((a, b) => a * b, 1);
    const group = publishedGroup(input.dtypes.get(t.name));
    if (group !== null) {
      // A published AWQ matrix runs packed at every precision: its 4-bit weights, zero points and scales.
      const q = quantizedBytes(t.shape[0]!, t.shape[1]!, { bits: 4, blockSize: group });
      const held = q.packed + (q.scales * el) / 4 + q.zeros;
      t0.compute += held;
      t0.half += held;
      t0.quantized += held;
      t0.file += q.packed + q.scales / 2 + q.zeros;
      t0.largestQuantized = Math.max(t0.largestQuantized, q.packed);
      continue;
    }
    const stored = input.dtypes.get(t.name) === 'F32' ? 4 : 2;
    t0.compute += n * el;
    // Matrices stored in F16/BF16 can stay so ('half'); norms and F32 tensors are widened either way.
    const halfBytes = t.shape.length === 2 && stored === 2 && el === 4 ? 2 * n : n * el;
    t0.half += halfBytes;
    t0.file += n * stored;
    t0.largest = Math.max(t0.largest, n * el);
    t0.largestHalf = Math.max(t0.largestHalf, halfBytes);
    if (scheme) {
      // Matrices as MatMulNBits holds them (scales in the compute dtype); norms in the compute dtype.
      const q = t.shape.length === 2 ? quantizedBytes(t.shape[0]!, t.shape[1]!, scheme) : null;
      const bytes = q ? q.packed + (q.scales * el) / 4 + q.zeros : n * el;
      t0.quantized += bytes;
      t0.largestQuantized = Math.max(t0.largestQuantized, q ? q.packed : bytes);
    }
  }
  return t0;
}

type Candidate = Omit<BackendPlan, 'problem' | 'held' | 'maxTokens'>;

/** The person chose a precision: one candidate, the weights as MatMulNBits holds them and what a session adds (measured). */
function quantizedCandidate(input: LoadPlanInput, limits: BackendLimits, scheme: QuantScheme, w: Tally, activations: number): Candidate {
  const { spec } = input;
  // A tied embedding is the head's own packed matrix (on WebGPU the first and last segments each hold it); only a pass's rows are dequantized.
  const embed = spec.tieWordEmbeddings && limits.backend === 'webgpu' ? quantizedBytes(spec.vocabSize, spec.hiddenSize, scheme).packed : 0;
  const weights = w.quantized + embed;
  // Measured (npm run bench:quant: Qwen2.5-0.5B whole and Qwen3-4B cut). wasm, its heap (the 4 GiB that
  // limits it): the quantized weights plus ≤ 8% and a growth step (Emscripten grows it by up to
  // 96 MiB more than asked), and a pass adds twice the largest matrix dequantized to fp32: MatMulNBits dequantizes
  // its whole matrix per call (a head runs in slices of SLICE_ROWS rows, so that is a slice or an MLP
  // matrix). native, the process: 1.3–1.4× the quantized weights, and one dequantized matrix.
  const matrices = tensorPlan(spec).filter((t) => t.shape.length === 2);
  const dequantized = 4 * Math.max(...matrices.map((t) => Math.min(t.shape[0]!, SLICE_ROWS) * t.shape[1]!));
  const session =
    limits.backend === 'wasm'
      ? 0.08 * weights + WASM_GROWTH + SESSION_FIXED + 2 * dequantized
      : limits.backend === 'native'
        ? 0.4 * weights + SESSION_FIXED + dequantized
        : 0;
  const transient = (input.holdsFileBytes ? w.file : 0) + w.largestQuantized;
  return {
    backend: limits.backend,
    storage: input.quant as QuantLevel,
    prepack: false,
    weights,
    overhead: activations + session,
    transient,
    largestTensor: w.largestQuantized,
  };
}

/** At the checkpoint's own precision: WebGPU holds the weights; wasm and native, fp32 (prepacked where it pays) or half-precision matrices. */
function ownPrecisionCandidates(input: LoadPlanInput, limits: BackendLimits, w: Tally, activations: number): Candidate[] {
  const { spec } = input;
  const el = computeBytes(input.computeDtype);
  const transient = (input.holdsFileBytes ? w.file : 0) + w.largest;
  const base = { backend: limits.backend, prepack: false, transient, largestTensor: w.largest };
  if (limits.backend === 'webgpu') {
    // The GPU holds the weights (a tied embedding twice: the first segment and the last each carry it).
    const weights = w.compute + (spec.tieWordEmbeddings ? spec.vocabSize * spec.hiddenSize * el : 0);
    return [{ ...base, storage: 'compute', weights, overhead: activations }];
  }
  const out: Candidate[] = [];
  if (limits.backend === 'native' || w.compute <= WASM_PREPACK_MAX_BYTES) {
    out.push({ ...base, storage: 'compute', prepack: true, weights: w.compute, overhead: 0.55 * w.compute + SESSION_FIXED + activations });
  }
  out.push({ ...base, storage: 'compute', weights: w.compute, overhead: 0.1 * w.compute + SESSION_FIXED + activations });
  // Half-precision matrices: their fp32 copy exists one layer at a time, plus the head's whole (widened for the logits, every pass).
  const headFp32 = spec.vocabSize * spec.hiddenSize * 4;
  if (w.half < w.compute) {
    const overhead = 0.1 * w.half + SESSION_FIXED + headFp32 + activations;
    out.push({ ...base, storage: 'half', weights: w.half, overhead, largestTensor: Math.max(w.largestHalf, headFp32) });
  }
  return out;
}

/** The plan for one backend, with the least memory-hungry storage that fits (or the reason none does). */
export function planBackend(input: LoadPlanInput, limits: BackendLimits): BackendPlan {
  const { spec } = input;
  const scheme = input.quant && input.quant !== 'none' ? schemeOf(input.quant) : null;
  const w = tally(input, scheme);
  // The pass alone: each candidate's largest weight is checked on its own (c.largestTensor).
  const passOf = (tokens: number) =>
    estimatePass(
      spec,
      { computeDtype: input.computeDtype, attention: 'explicit', inspectLayers: [spec.numLayers - 1], largestWeight: 0 },
      { tokens, attnRows: Math.min(64, tokens), fetchedLayers: 1, perHead: true, logitRows: 1 },
    );
  const pass = passOf(input.plannedTokens);
  const candidates: BackendPlan[] = (
    scheme ? [quantizedCandidate(input, limits, scheme, w, pass.activations)] : ownPrecisionCandidates(input, limits, w, pass.activations)
  ).map((c) => ({ ...c, problem: null, held: 0, maxTokens: null }));
  // A plan fits when a short pass fits beside what the session holds; the first that also fits the planned
  // pass wins, else the one that allows the longest passes (longer ones are refused when they run).
  const short = passOf(MIN_TOKENS);
  for (const c of candidates) {
    c.held = c.weights + c.overhead - pass.activations;
    c.maxTokens = longestPass(c, limits, passOf);
    const total = c.held + short.activations;
    if (limits.totalBytes !== null && total > limits.totalBytes) {
      c.problem = `needs about ${gib(total)} (weights ${gib(c.weights)}${c.storage === 'half' ? ' in half precision' : c.storage === 'compute' ? '' : ` at ${c.storage}`}) even for a ${MIN_TOKENS}-token pass, more than the ${gib(limits.totalBytes)} ${limits.backend} can use`;
    } else if (limits.maxBufferBytes !== null && c.largestTensor > limits.maxBufferBytes) {
      c.problem = `one ${gib(c.largestTensor)} tensor, more than the ${gib(limits.maxBufferBytes)} ${tensorLimitText(limits)}`;
    }
  }
  const fitting = candidates.filter((c) => !c.problem);
  const chosen =
    fitting.find((c) => c.maxTokens === null || c.maxTokens >= input.plannedTokens) ??
    [...fitting].sort((a, b) => (b.maxTokens ?? Infinity) - (a.maxTokens ?? Infinity))[0];
  if (chosen) return chosen;
  // None fits: the last (the leanest) says why, and a full-precision plan refused for one tensor says so too.
  const last = candidates[candidates.length - 1]!;
  const tensor = candidates.find((c) => c !== last && c.problem?.startsWith('one '));
  return tensor && last.problem !== tensor.problem ? { ...last, problem: `${last.problem}; in full precision, ${tensor.problem}` } : last;
}

/** The most tokens whose pass fits beside what the session holds (bisection; null when nothing bounds it). */
function longestPass(c: BackendPlan, limits: BackendLimits, passOf: (tokens: number) => { activations: number; largestTensor: number }): number | null {
  const fits = (n: number) => {
    const p = passOf(n);
    return (
      (limits.totalBytes === null || c.held + p.activations <= limits.totalBytes) &&
      (limits.maxBufferBytes === null || p.largestTensor <= limits.maxBufferBytes)
    );
  };
  if (limits.totalBytes === null && limits.maxBufferBytes === null) return null;
  if (!fits(1)) return 0;
  let lo = 1;
  let hi = 1 << 20;
  if (fits(hi)) return null;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** What to say when no backend fits: each backend's reason, then what would. */
export function noFitMessage(_spec: ModelSpec, plans: BackendPlan[], paramsLabel: string, fits: PrecisionFit[] = []): string {
  const why = plans.map((p) => `${p.backend}: ${p.problem}${isQuantLevel(p.storage) ? ` at ${p.storage}` : ''}`).join('; ');
  const tips: string[] = fits
    .filter((f) => f.fits)
    .map(
      (f) =>
        `${f.quant === 'none' ? 'full precision' : f.quant} (fits ${f.backend}${f.maxTokens !== null ? `, passes up to about ${f.maxTokens.toLocaleString('en-US')} tokens` : ''})`,
    );
  if (!plans.some((p) => p.backend === 'webgpu')) tips.push('WebGPU (in a browser with a GPU)');
  if (!plans.some((p) => p.backend === 'native')) tips.push('the command line with --backend native');
  if (plans.some((p) => p.backend === 'webgpu' && p.problem?.includes('one buffer'))) tips.push('an adapter with shader-f16 (fp16 halves the largest tensor)');
  tips.push('a smaller model');
  return `${paramsLabel} cannot be loaded here, and nothing was downloaded: ${why}. Try ${tips.join(', or ')}.`;
}

/** Lines a person reads before a download: size, and where it fits. */
export function describePlan(p: BackendPlan): string {
  const total = p.weights + p.overhead;
  const how =
    p.storage === 'half'
      ? 'half-precision matrices widened per pass (passes about as fast; generation several times slower per token)'
      : isQuantLevel(p.storage)
        ? `weights at ${p.storage} (${schemeOf(p.storage).bits}-bit blocks of ${schemeOf(p.storage).blockSize})`
        : `weights in fp32${p.prepack ? ', prepacked' : ''}`;
  const upTo = p.maxTokens !== null ? `, passes up to about ${p.maxTokens.toLocaleString('en-US')} tokens` : '';
  return p.problem ? `${p.backend}: does not fit (${p.problem})` : `${p.backend}: about ${gib(total)}, ${how}${upTo}`;
}

/** One backend at one precision: does it fit, and up to how many tokens. */
export interface PrecisionFit {
  quant: Quant;
  backend: BackendPlan['backend'];
  fits: boolean;
  /** Bytes the session would hold. */
  held: number;
  maxTokens: number | null;
}

/** The plan at every precision on each backend: what the person chooses from, before any weight is read. */
export function planPrecisions(input: Omit<LoadPlanInput, 'quant'>, limits: BackendLimits[], quants: readonly Quant[] = QUANTS): PrecisionFit[] {
  return limits.flatMap((lim) =>
    quants.map((quant) => {
      const p = planBackend({ ...input, quant }, lim);
      return { quant, backend: lim.backend, fits: !p.problem, held: p.weights + p.overhead, maxTokens: p.maxTokens };
    }),
  );
}

/** "fits wasm at q4 (about 1,400 tokens); at full precision it does not": one line per backend. */
export function describeFits(fits: PrecisionFit[]): string[] {
  const name = (q: Quant) => (q === 'none' ? 'full precision' : q);
  const backends = [...new Set(fits.map((f) => f.backend))];
  return backends.map((b) => {
    const mine = fits.filter((f) => f.backend === b);
    const yes = mine
      .filter((f) => f.fits)
      .map((f) => `${name(f.quant)} (${gib(f.held)}${f.maxTokens !== null ? `, passes up to about ${f.maxTokens.toLocaleString('en-US')} tokens` : ''})`);
    const no = mine.filter((f) => !f.fits).map((f) => name(f.quant));
    if (!yes.length) return `${b}: fits at no precision`;
    return `${b}: fits at ${yes.join(', ')}${no.length ? `; at ${no.join(' and ')} it does not` : ''}`;
  });
}
