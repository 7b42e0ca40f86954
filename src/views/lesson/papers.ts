/**
 * The papers' own figures the lesson quotes, each with where it stands in its paper: quoted, not computed (the page's
 * model is a tiny maze player, not the large models they measured). Readers asked for one figure from each paper
 * where the lesson said they "found the same pull".
 */
export const PAPERS = {
  ownWords: {
    title: 'Do LLMs benefit from their own words?',
    /** Turns where an earlier answer's error, hallucination or style carried forward ("context pollution"): section 4.2, table 1 (104 of 729 turns). */
    pollutedTurns: '14 %',
  },
  inertia: {
    title: 'Mitigating conversational inertia',
    /** How much Context Preference Learning cut the diagonal in Qwen3-8B: the abstract. */
    diagonalCut: '11 %',
    /** Its success-rate gain across context policies: the abstract. */
    successGain: 'about 4 %',
  },
} as const;

/** Both papers by title, quoted, where the lesson first names them. */
export const quotedTitles = (): string => `"${PAPERS.ownWords.title}" and "${PAPERS.inertia.title}"`;
