import { createContext, useContext } from 'react';
import type { ModelSlot } from '../../state/model-client';
import { useModelStore } from '../../state/model-store';

/** Which model slot a loader is for: model A (slot 0, the page's), or a compared model (1–3) inside the compare-models panel. */
export const ModelSlotContext = createContext<{ slot: ModelSlot; store: typeof useModelStore }>({ slot: 0, store: useModelStore });
export const useSlot = () => useContext(ModelSlotContext);
