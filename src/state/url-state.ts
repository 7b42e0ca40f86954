import { type AblationKind, headName, parseHeads, type HeadRef } from '../analysis/ablation';
import { parsePolicy, policySpec } from '../context/policy';
import { checkRepoId, checkRevision } from '../model/source/hub-source';
import { QUANTS, type Quant } from '../model/precision/quantize';

/** The models a link can name as a compared model that load from the app itself. */
export const isEmbedded = (m: string): m is 'demo' | 'demo-cpl' => m === 'demo' || m === 'demo-cpl';

/** What a link reproduces: the model, the policies, the turn, the head, the layer, r, and the conversation. */
export interface ViewState {
  /** 'demo', or a Hub id; `hub` is the Hub-style base when it is not huggingface.co. */
  model: string;
  revision: string;
  hub: string | null;
  /** 'wasm' skips WebGPU. */
  backend: 'auto' | 'wasm' | 'webgpu';
  /** The weight precision of model A (model/precision/quantize.ts). */
  quant: Quant;
  /** Compare models: models B, C and D, in slot order. */
  compared: ComparedModel[];
  /** The policies shown: one, or 2–4 in compare mode. */
  policies: string[];
  compare: boolean;
  /** 1-based scored turn; null = the last. */
  turn: number | null;
  head: 'mean' | number;
  /** Null = the final layer. */
  layer: number | null;
  radius: number;
  /** The layers × heads grid is shown. */
  heads: boolean;
  /** Heads switched off, "L.H" in the link: off=3.1,3.4; and how (offkind=mean: mean ablation). */
  off: HeadRef[];
  offKind: AblationKind;
  /** The conversation: its text when small enough, else the name of an unchanged example. */
  conversation: { text: string } | { example: string } | null;
}

/**
 * A compared model as a link names it: one of the embedded demo models (they load from the app itself, no
 * download), or a Hub id (huggingface.co), which is offered and loads only on a click; its revision (a Hub
 * model's) and its precision. Written as mb/mbrev/qb, mc/mcrev/qc, md/mdrev/qd.
 */
export interface ComparedModel {
  model: string;
  revision: string;
  quant: Quant;
}
/** The letters of the compared slots in a link (B, C, D: slots 1–3). */
const COMPARED_LETTERS = ['b', 'c', 'd'] as const;

type Fields = Omit<ViewState, 'conversation' | 'compared'>;
/** Reads one parameter: the value, or undefined (the default stays) after naming the problem. */
type Reader<T> = (raw: string, problem: (p: string) => void, view: Fields) => T | undefined;

/** One field of the view: its default, its query parameter, how it is written (null: left out) and read. */
interface Field<K extends keyof Fields> {
  fallback: Fields[K];
  param: string;
  write(value: Fields[K], view: Fields): string | null;
  read: Reader<Fields[K]>;
}

const wholeNumber =
  (name: string, min: number): Reader<number> =>
  (raw, problem) => {
    const n = Number(raw);
    if (Number.isInteger(n) && n >= min) return n;
    problem(`${name}=${raw} is not a whole number ≥ ${min}`);
    return undefined;
  };

const readQuant =
  (param: string): Reader<Quant> =>
  (raw, problem) =>
    QUANTS.includes(raw as Quant) ? (raw as Quant) : void problem(`${param}=${raw.slice(0, 40)} is not ${QUANTS.join(', ')}`);

/**
 * The view, declared once: the defaults, the link's codec, and what the inspector applies from a link
 * all come from this table. Order matters where a field reads another (compare needs the policies).
 */
export const VIEW_FIELDS: { [K in keyof Fields]: Field<K> } = {
  model: { fallback: 'demo', param: 'model', write: (m) => m, read: (raw) => raw || undefined },
  revision: { fallback: 'main', param: 'rev', write: (r, v) => (v.model !== 'demo' && r !== 'main' ? r : null), read: (raw) => raw || undefined },
  hub: { fallback: null, param: 'hub', write: (h, v) => (v.model !== 'demo' && h ? h : null), read: (raw) => raw },
  backend: {
    fallback: 'auto',
    param: 'backend',
    write: (b) => (b !== 'auto' ? b : null),
    read: (raw, problem) =>
      raw === 'wasm' || raw === 'auto' || raw === 'webgpu' ? raw : void problem(`backend=${raw.slice(0, 40)} is not auto, wasm or webgpu`),
  },
  quant: { fallback: 'none', param: 'q', write: (q) => (q !== 'none' ? q : null), read: readQuant('q') },
  policies: {
    fallback: ['full'],
    param: 'policy',
    write: (p) => p.join(','),
    read: (raw, problem) => {
      const ok: string[] = [];
      for (const p of raw.split(',').filter(Boolean)) {
        try {
          ok.push(policySpec(parsePolicy(p)));
        } catch (e) {
          problem((e as Error).message);
        }
      }
      return ok.length ? ok.slice(0, 4) : undefined;
    },
  },
  compare: { fallback: false, param: 'compare', write: (c) => (c ? '1' : null), read: (raw, _p, v) => raw === '1' && v.policies.length > 1 },
  turn: { fallback: null, param: 'turn', write: (t) => (t !== null ? String(t) : null), read: wholeNumber('turn', 1) },
  head: {
    fallback: 'mean',
    param: 'head',
    write: (h) => (h !== 'mean' ? String(h) : null),
    read: (raw, problem) => (raw === 'mean' ? 'mean' : wholeNumber('head', 0)(raw, problem, {} as Fields)),
  },
  layer: { fallback: null, param: 'layer', write: (l) => (l !== null ? String(l) : null), read: wholeNumber('layer', 0) },
  radius: {
    fallback: 5,
    param: 'r',
    write: (r) => (r !== 5 ? (Number.isFinite(r) ? String(r) : 'inf') : null),
    read: (raw, problem) => (raw === 'inf' ? Infinity : wholeNumber('r', 0)(raw, problem, {} as Fields)),
  },
  heads: { fallback: false, param: 'heads', write: (h) => (h ? '1' : null), read: (raw) => raw === '1' },
  off: {
    fallback: [],
    param: 'off',
    write: (o) => (o.length ? o.map(headName).join(',') : null),
    // Checked against the model when it runs (the worker names a head the model does not have).
    read: (raw, problem) => {
      const heads = parseHeads(raw, Infinity, Infinity);
      return typeof heads === 'string' ? void problem(`off=${raw.slice(0, 40)}: ${heads}`) : heads;
    },
  },
  offKind: {
    fallback: 'zero',
    param: 'offkind',
    write: (k) => (k !== 'zero' ? k : null),
    read: (raw, problem) => (raw === 'zero' || raw === 'mean' ? raw : void problem(`offkind=${raw.slice(0, 40)} is not zero or mean`)),
  },
};

const FIELD_KEYS = Object.keys(VIEW_FIELDS) as (keyof Fields)[];

export const DEFAULT_VIEW: ViewState = {
  ...(Object.fromEntries(FIELD_KEYS.map((k) => [k, VIEW_FIELDS[k].fallback])) as Fields),
  compared: [],
  conversation: null,
};

/** The compared models' parameters: mb=…&mbrev=…&qb=…, then c, then d (a Hub model's revision only when not main). */
function writeCompared(q: URLSearchParams, compared: ComparedModel[]): void {
  compared.slice(0, COMPARED_LETTERS.length).forEach((c, i) => {
    const l = COMPARED_LETTERS[i]!;
    q.set(`m${l}`, c.model);
    if (!isEmbedded(c.model) && c.revision !== 'main') q.set(`m${l}rev`, c.revision);
    if (c.quant !== 'none') q.set(`q${l}`, c.quant);
  });
}

/** Reads them back, in slot order, up to the first letter the link leaves out. */
function readCompared(q: URLSearchParams, problem: (p: string) => void): ComparedModel[] {
  const out: ComparedModel[] = [];
  for (const l of COMPARED_LETTERS) {
    const model = q.get(`m${l}`);
    if (model === null) break;
    const bad = isEmbedded(model) ? null : checkRepoId(model);
    if (bad) {
      problem(`m${l}=${model.slice(0, 40)} is not demo, demo-cpl or a Hub model id (owner/name)`);
      break;
    }
    const rev = q.get(`m${l}rev`);
    const revision = rev === null ? 'main' : checkRevision(rev) ? (problem(`m${l}rev=${rev.slice(0, 40)} is not a branch, tag or commit name`), 'main') : rev;
    out.push({ model, revision, quant: readQuant(`q${l}`)(q.get(`q${l}`) ?? 'none', problem, {} as Fields) ?? 'none' });
  }
  return out;
}

/** The fields of the view the inspector holds (the rest belong to the model store). */
export const INSPECTOR_VIEW_KEYS = [
  'policies',
  'compare',
  'turn',
  'head',
  'layer',
  'radius',
  'heads',
  'off',
  'offKind',
] as const satisfies readonly (keyof Fields)[];
export type InspectorView = Pick<ViewState, (typeof INSPECTOR_VIEW_KEYS)[number]>;
export const pickInspectorView = (v: InspectorView): InspectorView => Object.fromEntries(INSPECTOR_VIEW_KEYS.map((k) => [k, v[k]])) as unknown as InspectorView;

/** Longest conversation carried in a link, in base64url characters (links stay well under browsers' limits). */
export const MAX_LINK_CONVERSATION = 6000;

export function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(s: string): string {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/**
 * The view as a link: the query string, and the conversation in the fragment (after #), which the
 * browser never sends to the server hosting the page. The conversation rides along when its encoding
 * is short; otherwise the link names the example it came from, or carries no conversation (and
 * `conversationCarried` says so).
 */
export function encodeView(
  v: ViewState,
  conversationText: string | null,
  exampleName: string | null,
): { query: string; fragment: string; conversationCarried: boolean } {
  const q = new URLSearchParams();
  for (const k of FIELD_KEYS) {
    const written = (VIEW_FIELDS[k].write as (x: unknown, view: Fields) => string | null)(v[k], v);
    if (written !== null) q.set(VIEW_FIELDS[k].param, written);
  }
  writeCompared(q, v.compared);
  let carried = true;
  let fragment = '';
  if (exampleName !== null) q.set('example', exampleName);
  else if (conversationText !== null) {
    const enc = toBase64Url(conversationText);
    if (enc.length <= MAX_LINK_CONVERSATION) fragment = `conv=${enc}`;
    else carried = false;
  }
  return { query: q.toString(), fragment, conversationCarried: carried };
}

/**
 * Reads a link back (its query string and fragment); what cannot be read is skipped and named in
 * `problems`. A conversation in the query string (links made before it moved to the fragment) is read too.
 */
export function decodeView(search: string, hash = ''): { view: ViewState; problems: string[] } {
  const q = new URLSearchParams(search);
  const h = new URLSearchParams(hash.replace(/^#/, ''));
  const problems: string[] = [];
  const view: ViewState = { ...DEFAULT_VIEW, policies: [...DEFAULT_VIEW.policies], compared: [] };
  const fields = view as unknown as Record<string, unknown>;
  for (const k of FIELD_KEYS) {
    const raw = q.get(VIEW_FIELDS[k].param);
    if (raw === null) continue;
    const value = VIEW_FIELDS[k].read(raw, (p) => problems.push(p), view);
    if (value !== undefined) fields[k] = value;
  }
  view.compared = readCompared(q, (p) => problems.push(p));
  const example = q.get('example');
  const conv = h.get('conv') ?? q.get('conv');
  if (example) view.conversation = { example };
  else if (conv) {
    try {
      view.conversation = { text: fromBase64Url(conv) };
    } catch {
      problems.push('the conversation in the link is damaged (conv= is not valid base64url UTF-8)');
    }
  }
  return { view, problems };
}
