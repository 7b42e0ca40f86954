import { createContext, useContext } from 'react';
import type { ModelSlot } from '../../state/model-client';
import { useModelStore } from '../../state/model-store';

/** Which model slot a loader is for: model A (the page's), or model B inside the compare-models panel. */
export const ModelSlotContext = createContext<{ slot: ModelSlot; store: typeof useModelStore }>({ slot: 'a', store: useModelStore });
export const useSlot = () => useContext(ModelSlotContext);
