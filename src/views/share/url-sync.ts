import { CPL_MODEL_LABEL, CPL_MODEL_PATH, DEMO_MODEL_LABEL, DEMO_MODEL_PATH } from '../../model/demo';
import { demoSource } from '../demo-source';
import { EXAMPLES } from '../../state/examples';
import { useInspector, type InspectorState } from '../../state/inspector-store';
import { useModelBStore, useModelStore, type ModelInfo } from '../../state/model-store';
import { useLesson } from '../../state/lesson-store';
import { decodeView, encodeView, isEmbedded, pickInspectorView, type ViewState } from '../../state/url-state';
import { CPL_REF, DEMO_REF } from '../../state/hub-access';
import { lessonFragment, parseHide } from '../lesson/hide';
import { LESSON } from '../lesson/steps';

export function viewOf(s: InspectorState, info: ModelInfo | null): ViewState {
  const ref = info?.ref ?? DEMO_REF;
  // Model B as the link can name it: an embedded model, or a model from huggingface.co.
  const b = useModelBStore.getState().info?.ref;
  const named = s.compareModels && b && (isEmbedded(b.model) || b.hub === null) ? b : null;
  const { backend, quant } = useModelStore.getState();
  return { model: ref.model, revision: ref.revision, hub: ref.hub, backend, quant, modelB: named?.model ?? null, revisionB: named?.revision ?? 'main', quantB: useModelBStore.getState().quant, ...pickInspectorView(s), conversation: null };
}

/** What the link leaves out, if anything. */
export function linkNote(s: InspectorState, info: ModelInfo | null): string | null {
  const notes = [];
  if (info && !info.ref) notes.push('the link cannot carry a model from local files (it names the demo model)');
  if (!encodeView(viewOf(s, info), s.text, s.exampleName).conversationCarried) notes.push('the conversation is too long for a link: save it and paste it again');
  if (Object.keys(s.generated).length) notes.push("it carries the conversation's own answer, not the one the model wrote here (its page scores that one)");
  return notes.length ? `Note: ${notes.join('; ')}.` : null;
}

/** Applies the page's URL (model, view, conversation), then keeps the URL in step with the view. */
export function startFromUrl(): string[] {
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
    if (Number.isInteger(n) && n >= 1 && n <= LESSON.length) useLesson.getState().open(n - 1);
    else problems.push(`lesson=${lesson.slice(0, 20)} is not a step from 1 to ${LESSON.length}`);
  }
  // hide=policies,view: a teacher's exercise with chosen parts of the inspector hidden.
  const hide = fragment.get('hide');
  if (hide !== null) {
    const { hidden, problems: bad } = parseHide(hide);
    useLesson.getState().setHidden(hidden);
    problems.push(...bad);
  }
  useModelStore.setState({ backend: view.backend, quant: view.quant });
  useModelBStore.setState({ quant: view.quantB });
  const { loadModel, offerLink } = useModelStore.getState();
  // The demo model always; a model the link names is shown, and loads only on a click.
  void loadModel(demoSource(DEMO_MODEL_PATH, DEMO_MODEL_LABEL), DEMO_REF);
  if (view.model !== DEMO_REF.model) offerLink({ model: view.model, revision: view.revision, hub: view.hub });
  // Model B: compare models on; an embedded one loads from the app itself, a Hub one is offered (a click looks it up).
  if (view.modelB) {
    useInspector.getState().setCompareModels(true);
    if (isEmbedded(view.modelB)) {
      const [path, label] = view.modelB === CPL_REF.model ? [CPL_MODEL_PATH, CPL_MODEL_LABEL] : [DEMO_MODEL_PATH, DEMO_MODEL_LABEL];
      void useModelBStore.getState().loadModel(demoSource(path, label), { model: view.modelB, revision: 'main', hub: null });
    } else useModelBStore.getState().offerLink({ model: view.modelB, revision: view.revisionB, hub: null });
  }
  const write = () => {
    const s = useInspector.getState();
    const { query, fragment: conv } = encodeView(viewOf(s, useModelStore.getState().info), s.text, s.exampleName);
    const { step, hidden } = useLesson.getState();
    const fragment = [conv, lessonFragment(step, hidden)].filter(Boolean).join('&');
    const link = `?${query}${fragment ? `#${fragment}` : ''}`;
    if (link !== `${location.search}${location.hash}`) history.replaceState(null, '', link);
  };
  useInspector.subscribe(write);
  useModelStore.subscribe(write);
  useModelBStore.subscribe(write);
  useLesson.subscribe(write);
  return problems;
}
