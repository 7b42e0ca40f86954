/**
 * The app's start: the link (query and fragment) → the inspector's view and the lesson → the models it
 * names; then the link kept in step with the view. The page calls startFromUrl once, before rendering.
 */
import { CPL_MODEL_LABEL, CPL_MODEL_PATH, DEMO_MODEL_LABEL, DEMO_MODEL_PATH } from '../model/demo';
import { demoSource } from './demo-source';
import { EXAMPLES } from './examples';
import { CPL_REF, DEMO_REF, type ModelRef } from './hub-access';
import { useInspector, type InspectorState } from './inspector-store';
import { useLesson } from './lesson-store';
import { modelStore, modelStores, useModelStore, type ModelInfo } from './model-store';
import { lessonFragment, parseHide } from './regions';
import { decodeView, encodeView, isEmbedded, pickInspectorView, type ComparedModel, type ViewState } from './url-state';

/** The compared models a link can name: embedded ones, or models from huggingface.co (not files, not other hosts). */
function comparedInLink(s: InspectorState): ComparedModel[] {
  if (!s.compareModels) return [];
  const out: ComparedModel[] = [];
  for (const store of modelStores().slice(1)) {
    const { info, quant } = store.getState();
    const ref = info?.ref;
    // A slot the link cannot name ends the list: the slots after it would shift.
    if (!ref || !(isEmbedded(ref.model) || ref.hub === null)) break;
    out.push({ model: ref.model, revision: ref.revision, quant });
  }
  return out;
}

export function viewOf(s: InspectorState, info: ModelInfo | null): ViewState {
  const ref = info?.ref ?? DEMO_REF;
  const { backend, quant } = useModelStore.getState();
  return { model: ref.model, revision: ref.revision, hub: ref.hub, backend, quant, compared: comparedInLink(s), ...pickInspectorView(s), conversation: null };
}

/** What the link leaves out, if anything. */
export function linkNote(s: InspectorState, info: ModelInfo | null): string | null {
  const notes = [];
  if (info && !info.ref) notes.push('the link cannot carry a model from local files (it names the demo model)');
  if (!encodeView(viewOf(s, info), s.text, s.exampleName).conversationCarried)
    notes.push('the conversation is too long for a link: save it and paste it again');
  if (s.generated.some((g) => g && Object.keys(g).length))
    notes.push("it carries the conversation's own answer, not the one the model wrote here (its page scores that one)");
  return notes.length ? `Note: ${notes.join('; ')}.` : null;
}

/** An embedded model's source and how a link names it. */
function embedded(model: 'demo' | 'demo-cpl') {
  const [path, label, ref] = model === 'demo-cpl' ? [CPL_MODEL_PATH, CPL_MODEL_LABEL, CPL_REF] : [DEMO_MODEL_PATH, DEMO_MODEL_LABEL, DEMO_REF];
  return { source: demoSource(path, label), ref: ref as ModelRef };
}

/**
 * Applies the page's URL (model, view, conversation, lesson, hidden regions), starts the models it names,
 * then keeps the URL in step with the view. Returns what in the link could not be used.
 */
export function startFromUrl({ lessonSteps }: { lessonSteps: number }): string[] {
  const { view, problems } = decodeView(location.search, location.hash);
  let text: string | null = null;
  if (view.conversation && 'text' in view.conversation) text = view.conversation.text;
  else if (view.conversation && 'example' in view.conversation) {
    const name = view.conversation.example;
    const ex = EXAMPLES.find((e) => e.name === name);
    if (ex) text = ex.text;
    else problems.push(`the link names an example "${name}" this version does not have`);
  }
  if (location.search || location.hash) useInspector.getState().applyView(view, text);
  // #lesson=N (1-based) opens the lesson at that step.
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const lesson = fragment.get('lesson');
  if (lesson !== null) {
    const n = Number(lesson);
    if (Number.isInteger(n) && n >= 1 && n <= lessonSteps) useLesson.getState().open(n - 1);
    else problems.push(`lesson=${lesson.slice(0, 20)} is not a step from 1 to ${lessonSteps}`);
  }
  // hide=policies,view: a teacher's exercise with chosen parts of the inspector hidden.
  const hide = fragment.get('hide');
  if (hide !== null) {
    const { hidden, problems: bad } = parseHide(hide);
    useLesson.getState().setHidden(hidden);
    problems.push(...bad);
  }
  startModels(view);
  const write = () => {
    const s = useInspector.getState();
    const { query, fragment: conv } = encodeView(viewOf(s, useModelStore.getState().info), s.text, s.exampleName);
    const { step, hidden } = useLesson.getState();
    const fragment = [conv, lessonFragment(step, hidden)].filter(Boolean).join('&');
    const link = `?${query}${fragment ? `#${fragment}` : ''}`;
    if (link !== `${location.search}${location.hash}`) history.replaceState(null, '', link);
  };
  useInspector.subscribe(write);
  for (const store of modelStores()) store.subscribe(write);
  useLesson.subscribe(write);
  return problems;
}

/** The demo model always; a model the link names is shown, and loads only on a click. Compared models likewise. */
function startModels(view: ViewState): void {
  useModelStore.setState({ backend: view.backend, quant: view.quant });
  const { loadModel, offerLink } = useModelStore.getState();
  const demo = embedded('demo');
  void loadModel(demo.source, demo.ref);
  if (view.model !== DEMO_REF.model) offerLink({ model: view.model, revision: view.revision, hub: view.hub });
  // Compare models: an embedded model loads from the app itself, a Hub one is offered (a click looks it up).
  if (view.compared.length) useInspector.getState().setCompareModels(true);
  view.compared.forEach((c, i) => {
    const store = modelStore(i + 1);
    store.setState({ quant: c.quant });
    if (isEmbedded(c.model)) {
      const e = embedded(c.model);
      void store.getState().loadModel(e.source, e.ref);
    } else store.getState().offerLink({ model: c.model, revision: c.revision, hub: null });
  });
}
