import { checkRepoId, checkRevision, HUB_URL } from '../model/source/hub-source';

/** A model as a link names it: the demo models by name, Hub models by id, revision and Hub. */
export interface ModelRef {
  model: string;
  revision: string;
  hub: string | null;
}

/** The two embedded models as links name them. */
export const DEMO_REF: ModelRef = { model: 'demo', revision: 'main', hub: null };
export const CPL_REF: ModelRef = { model: 'demo-cpl', revision: 'main', hub: null };

/**
 * The Hub access token: kept in memory, or on request in this browser only (localStorage); never in a
 * link. Gated repos (Llama, Gemma, Mistral) need one.
 */
const TOKEN_KEY = 'inertia-lens-hub-token';

export function rememberedToken(): string {
  try {
    return globalThis.localStorage?.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

export function storeToken(token: string, remember: boolean): void {
  try {
    if (remember && token) globalThis.localStorage?.setItem(TOKEN_KEY, token);
    else globalThis.localStorage?.removeItem(TOKEN_KEY);
  } catch {
    /* storage refused (private mode): the token stays in memory */
  }
}

/** A model a link names, as a person should see it before anything is fetched: its id, revision and host. */
export interface LinkOffer {
  ref: ModelRef;
  /** The host it would be fetched from. */
  host: string;
  /** Not huggingface.co: said plainly. */
  foreign: boolean;
  /** Why it cannot be offered (a malformed id or revision, a host that is not http(s)). */
  problem: string | null;
}

export function linkOffer(ref: ModelRef): LinkOffer {
  let host = 'huggingface.co';
  let problem = checkRepoId(ref.model) ?? checkRevision(ref.revision);
  if (ref.hub !== null) {
    try {
      const u = new URL(ref.hub);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') problem ??= `"${ref.hub.slice(0, 80)}" is not an http(s) address`;
      else if (u.search || u.hash || u.username || u.password) problem ??= `"${ref.hub.slice(0, 80)}" carries a query, fragment or credentials`;
      host = u.host;
    } catch {
      problem ??= `"${ref.hub.slice(0, 80)}" is not an address`;
    }
  }
  return { ref, host, foreign: ref.hub !== null && ref.hub.replace(/\/+$/, '') !== HUB_URL, problem };
}
