import { create } from 'zustand';
import { parseTemplateDate } from '../model/tokenizer/template-date';
import { STALE_MODEL } from '../worker/api';
import { linkOffer, rememberedToken, storeToken } from './hub-access';
import { MAX_MODELS, type ModelSlot } from './model-client';
import { choices, IDLE, loads, SlotLoads, type ModelState } from './model-loads';

export type { BackendChoice, ForwardView } from '../worker/api';
/** How a link names the model: the demo, or a Hub id; null for local files (a link cannot carry them). */
export type { ModelRef } from './hub-access';
export { mark, type LoadOrigin, type LoadState, type ModelInfo, type PendingDownload } from './model-loads';

const isStale = (e: unknown) => (e as Error)?.name === STALE_MODEL;

/** The store of one model slot: slot 0 is the model inspected, the others the ones compared with it (each its own worker). */
function createModelStore(slot: ModelSlot) {
  return create<ModelState>()((set, get) => {
    const l = new SlotLoads(slot, set, get);
    return {
      ...choices(l, set, get),
      ...loads(l, set, get),
      load: IDLE,
      info: null,
      forward: null,
      forwardError: null,
      pending: null,
      confirmAboveBytes: 200e6,
      linkOffer: null,
      accessToken: rememberedToken(),
      rememberToken: rememberedToken() !== '',
      setAccessToken(token, remember) {
        storeToken(token.trim(), remember);
        set({ accessToken: token.trim(), rememberToken: remember });
      },
      offerLink(ref) {
        set({ linkOffer: ref ? linkOffer(ref) : null });
      },
      async setTemplateDate(date) {
        const info = get().info;
        if (!info || info.templateDate === null || !parseTemplateDate(date)) return false;
        const ok = await l.call('setTemplateDate', { modelId: info.modelId, date }).promise.catch(() => false);
        if (ok && get().info?.modelId === info.modelId) set({ info: { ...info, templateDate: date } });
        return ok;
      },
      async runForward(text, asChat) {
        const info = get().info;
        if (!info) return;
        try {
          const forward = await l.call('forward', { modelId: info.modelId, text, asChat }).promise;
          set({ forwardError: null, forward });
        } catch (e) {
          if (!isStale(e)) set({ forwardError: (e as Error).message });
        }
      },
    };
  });
}

export type ModelStore = ReturnType<typeof createModelStore>;
/** Every slot's store (a store is cheap; a slot's worker starts only when its first model loads). */
const stores: readonly ModelStore[] = Array.from({ length: MAX_MODELS }, (_, slot) => createModelStore(slot));
/** A slot's store. */
export function modelStore(slot: ModelSlot): ModelStore {
  const s = stores[slot];
  if (!s) throw new RangeError(`model slot ${slot}: there are ${MAX_MODELS} (0–${MAX_MODELS - 1})`);
  return s;
}
/** The model inspected (slot 0). */
export const useModelStore = modelStore(0);
/** Every slot's store, slot 0 first. */
export const modelStores = (): readonly ModelStore[] => stores;
