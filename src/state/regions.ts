/** What a teacher's link can hide (`hide=` in the fragment): the inspector's regions, by their data-lesson name. */
export const HIDEABLE = ['model', 'conversation', 'policies', 'compare-models', 'view', 'figures', 'heatmap', 'tokens', 'charts', 'heads', 'forward'] as const;
export type Hideable = (typeof HIDEABLE)[number];

export const HIDEABLE_NAMES: Record<Hideable, string> = {
  model: 'the model panels',
  conversation: 'the conversation',
  policies: 'the policies',
  'compare-models': 'compare models',
  view: 'the view controls',
  figures: 'the figures',
  heatmap: 'the heatmap',
  tokens: 'the tokens',
  charts: 'the charts',
  heads: 'the layers × heads grid',
  forward: 'the raw forward pass',
};

/** Reads `hide=a,b`: the regions named, and a problem for each name that is not one. */
export function parseHide(raw: string): { hidden: Hideable[]; problems: string[] } {
  const hidden: Hideable[] = [];
  const problems: string[] = [];
  for (const name of raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    // Links written before the panel compared up to four models named it model-b.
    const region = name === 'model-b' ? 'compare-models' : name;
    if ((HIDEABLE as readonly string[]).includes(region)) hidden.push(region as Hideable);
    else problems.push(`hide=${name.slice(0, 30)} is not one of ${HIDEABLE.join(', ')}`);
  }
  return { hidden: [...new Set(hidden)], problems };
}

/** The fragment's lesson and hide parameters (the conversation, when carried, comes before them). */
export function lessonFragment(step: number | null, hidden: readonly Hideable[]): string {
  return [step !== null ? `lesson=${step + 1}` : '', hidden.length ? `hide=${hidden.join(',')}` : ''].filter(Boolean).join('&');
}
