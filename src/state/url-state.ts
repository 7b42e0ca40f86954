import { parsePolicy, policySpec } from '../context/policy';

/** What a link reproduces: the model, the policies, the turn, the head, the layer, r, and the conversation. */
export interface ViewState {
  /** 'demo', or a Hub id; `hub` is the Hub-style base when it is not huggingface.co. */
  model: string;
  revision: string;
  hub: string | null;
  /** 'wasm' skips WebGPU. */
  backend: 'auto' | 'wasm' | 'webgpu';
  /** The policies shown: one, or 2–4 in compare mode. */
  policies: string[];
  compare: boolean;
  /** 1-based scored turn; null = the last. */
  turn: number | null;
  head: 'mean' | number;
  /** Null = the final layer. */
  layer: number | null;
  radius: number;
  /** The conversation: its text when small enough, else the name of an unchanged example. */
  conversation: { text: string } | { example: string } | null;
}

export const DEFAULT_VIEW: ViewState = {
  model: 'demo', revision: 'main', hub: null, backend: 'auto', policies: ['full'], compare: false, turn: null, head: 'mean', layer: null, radius: 5, conversation: null,
};

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
 * The view as a query string. The conversation rides along when its encoding is short; otherwise
 * the link names the example it came from, or carries no conversation (and `conversationCarried` says so).
 */
export function encodeView(v: ViewState, conversationText: string | null, exampleName: string | null): { query: string; conversationCarried: boolean } {
  const q = new URLSearchParams();
  q.set('model', v.model);
  if (v.model !== 'demo' && v.revision !== 'main') q.set('rev', v.revision);
  if (v.model !== 'demo' && v.hub) q.set('hub', v.hub);
  if (v.backend !== 'auto') q.set('backend', v.backend);
  q.set('policy', v.policies.join(','));
  if (v.compare) q.set('compare', '1');
  if (v.turn !== null) q.set('turn', String(v.turn));
  if (v.head !== 'mean') q.set('head', String(v.head));
  if (v.layer !== null) q.set('layer', String(v.layer));
  if (v.radius !== 5) q.set('r', Number.isFinite(v.radius) ? String(v.radius) : 'inf');
  let carried = true;
  if (exampleName !== null) q.set('example', exampleName);
  else if (conversationText !== null) {
    const enc = toBase64Url(conversationText);
    if (enc.length <= MAX_LINK_CONVERSATION) q.set('conv', enc);
    else carried = false;
  }
  return { query: q.toString(), conversationCarried: carried };
}

/** Reads a query string back; what cannot be read is skipped and named in `problems`. */
export function decodeView(search: string): { view: ViewState; problems: string[] } {
  const q = new URLSearchParams(search);
  const problems: string[] = [];
  const view: ViewState = { ...DEFAULT_VIEW, policies: [...DEFAULT_VIEW.policies] };
  const int = (name: string, min: number): number | null => {
    const raw = q.get(name);
    if (raw === null) return null;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) {
      problems.push(`${name}=${raw} is not a whole number ≥ ${min}`);
      return null;
    }
    return n;
  };
  view.model = q.get('model') || 'demo';
  view.revision = q.get('rev') || 'main';
  view.hub = q.get('hub');
  const backend = q.get('backend');
  if (backend === 'wasm' || backend === 'auto' || backend === 'webgpu') view.backend = backend;
  else if (backend !== null) problems.push(`backend=${backend.slice(0, 40)} is not auto, wasm or webgpu`);
  const policies = (q.get('policy') ?? 'full').split(',').filter(Boolean);
  const ok: string[] = [];
  for (const p of policies) {
    try {
      ok.push(policySpec(parsePolicy(p)));
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  view.policies = ok.length ? ok.slice(0, 4) : ['full'];
  view.compare = q.get('compare') === '1' && view.policies.length > 1;
  view.turn = int('turn', 1);
  const head = q.get('head');
  view.head = head === null || head === 'mean' ? 'mean' : (int('head', 0) ?? 'mean');
  view.layer = int('layer', 0);
  const r = q.get('r');
  if (r !== null) {
    if (r === 'inf') view.radius = Infinity;
    else view.radius = int('r', 0) ?? 5;
  }
  const example = q.get('example');
  const conv = q.get('conv');
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
