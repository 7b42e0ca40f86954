/** How the figures are written, on the panel and in any text that quotes them (the lesson): one place. */
export const fmtShare = (v: number): string => v.toFixed(4);
export const fmtSigned = (v: number): string => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(4)}`;
/** The same figures in per cent, two decimals: the lesson's panels, whose cards speak in per cent ("52.93 %"). */
export const fmtPercent = (v: number): string => `${(v * 100).toFixed(2)}\u00a0%`;
export const fmtSignedPercent = (v: number): string => `${v >= 0 ? '+' : '−'}${Math.abs(v * 100).toFixed(2)}\u00a0%`;
