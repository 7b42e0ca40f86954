/** How the figures are written, on the panel and in any text that quotes them (the lesson): one place. */
export const fmtShare = (v: number): string => v.toFixed(4);
export const fmtSigned = (v: number): string => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(4)}`;
