import { QUANTS, type Quant } from '../../model/precision/quantize';
import { useSlot } from './slot';

const LABELS: Record<Quant, string> = { none: 'its own', q8: 'q8 (8-bit)', q4: 'q4 (4-bit)', q4g128: 'q4g128 (4-bit, coarser)' };

/** The weight precision: the person's choice, never made silently (model/precision/quantize.ts). */
export function PrecisionSelect() {
  const { store: useModel } = useSlot();
  const quant = useModel((s) => s.quant);
  const setQuant = useModel((s) => s.setQuant);
  const loading = useModel((s) => s.load.status === 'loading');
  return (
    <select aria-label="weight precision" value={quant} disabled={loading} onChange={(e) => void setQuant(e.target.value as Quant)}>
      {QUANTS.map((q) => (
        <option key={q} value={q}>
          {LABELS[q]}
        </option>
      ))}
    </select>
  );
}
