import { useEffect, useState } from 'react';
import { numbersValid, type PolicyNumbers, parsePolicy, policyLabel, policySpecs } from '../../context/policy';
import { activePolicies, useInspector } from '../../state/inspector-store';
import { isQuiet, useLesson, useQuiet } from '../../state/lesson-store';
import { buttonsMet } from '../lesson/policies-met';
import { Explain } from '../explain/Explain';
import { PolicyContexts } from './PolicyContexts';

/** One click switches the policy; in compare mode the clicks choose 2–4 policies shown side by side. */
export function PolicyBar() {
  const quiet = useQuiet();
  const policies = useInspector((s) => s.policies);
  const compareModels = useInspector((s) => s.compareModels);
  // Comparing models, one policy is scored by both: the clicks choose it.
  const compare = useInspector((s) => s.compare) && !compareModels;
  const active = activePolicies({ policies, compare, compareModels });
  const setPolicy = useInspector((s) => s.setPolicy);
  const setCompare = useInspector((s) => s.setCompare);
  const toggle = useInspector((s) => s.toggleComparePolicy);
  // W, H and L live in the store (the table of what each policy keeps shows the same policies), only ever valid:
  // the fields keep what is typed, and a valid draft goes to the store.
  const numbers = useInspector((s) => s.policyNumbers);
  const setNumbers = useInspector((s) => s.setPolicyNumbers);
  const [draft, setDraft] = useState<PolicyNumbers>(numbers);
  useEffect(() => setDraft(numbers), [numbers]);
  const { window: w, clipAt: h, clipTo: l } = draft;
  // In the lesson, only the policies its cards have named so far (the one on stays, whatever it is).
  const lessonStep = useLesson((s) => (isQuiet(s) ? s.step : null));
  const met = buttonsMet(lessonStep);
  const specs = policySpecs(numbers).filter((p) => !met || met(p) || active.includes(p));
  const valid = numbersValid(draft);
  const edit = (key: keyof PolicyNumbers) => (v: number) => {
    const next = { ...draft, [key]: v };
    setDraft(next);
    setNumbers(next); // the store keeps only valid numbers
  };
  const num = (label: string, v: number, set: (n: number) => void) => (
    <label>
      {label}{' '}
      <input type="number" min={0} value={v} size={3} style={{ width: '4em' }} onChange={(e) => set(Math.max(0, Math.floor(Number(e.target.value) || 0)))} />
    </label>
  );
  return (
    <section className="panel" aria-labelledby="policy-title">
      <h2 id="policy-title">
        Context policy
        <Explain id="policies" />
      </h2>
      <fieldset className="row bare" aria-label="policies">
        {specs.map((spec) => {
          const on = active.some((a) => a === spec || (a.split(':')[0] === spec.split(':')[0] && !compare));
          const disabled = !valid && /^(clip|summary|window)/.test(spec);
          return (
            <button
              key={spec}
              type="button"
              className={`policy${on ? ' on' : ''}`}
              aria-pressed={on}
              disabled={disabled}
              title={spec}
              onClick={() => (compare ? toggle(spec) : setPolicy(spec))}
            >
              {policyLabel(parsePolicy(spec))}
            </button>
          );
        })}
      </fieldset>
      <div className="row">
        {/* The policies' numbers are the researcher's: the lesson sets its own and says them in its words. */}
        {!quiet && num('W (Window: turns kept)', w, edit('window'))}
        {!quiet && num('H (Clip, Summary: cut at)', h, edit('clipAt'))}
        {!quiet && num('L (… back to)', l, edit('clipTo'))}
        {!valid && <span className="error">Clip and Summary need H ≥ 1 and L &lt; H.</span>}
        <label title={compareModels ? 'models are being compared: one policy at a time (turn "compare models" off to compare policies)' : undefined}>
          <input type="checkbox" checked={compare} disabled={compareModels} onChange={(e) => setCompare(e.target.checked)} /> compare 2–4 policies side by side
        </label>
        {compareModels && (
          <span className="muted" data-testid="compare-policies-off">
            (off while models are compared: each model scores the first policy)
          </span>
        )}
        {compare && (
          <span className="muted">comparing {policies.map((p) => policyLabel(parsePolicy(p))).join(' · ')}; the first is the baseline of the Δ columns</span>
        )}
      </div>
      <PolicyContexts />
    </section>
  );
}
