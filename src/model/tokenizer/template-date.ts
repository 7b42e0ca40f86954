/**
 * The date chat templates see. Templates that call `strftime_now` (Llama 3.x's "Today Date", Granite,
 * SmolLM3) would otherwise change their text, and every figure, from day to day: they get this fixed
 * date instead, shown next to the model and changeable. The default is the date Llama 3.1's own
 * template falls back to when it is given none.
 */
export const DEFAULT_TEMPLATE_DATE = '2024-07-26';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A YYYY-MM-DD date, or null when the text is not one. */
export function parseTemplateDate(text: string): { y: number; m: number; d: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? { y, m: mo, d } : null;
}

/** Python's strftime for the codes templates use (%Y %m %d %b %B %H %M %%), in English, at 00:00. */
export function strftimeAt(date: string, format: string): string {
  const p = parseTemplateDate(date) ?? parseTemplateDate(DEFAULT_TEMPLATE_DATE)!;
  const pad = (n: number) => String(n).padStart(2, '0');
  return format.replace(/%[YmdbBHMd%]/g, (code) => {
    switch (code) {
      case '%Y':
        return String(p.y);
      case '%m':
        return pad(p.m);
      case '%d':
        return pad(p.d);
      case '%b':
        return MONTHS[p.m - 1]!.slice(0, 3);
      case '%B':
        return MONTHS[p.m - 1]!;
      case '%H':
      case '%M':
        return '00';
      default:
        return '%';
    }
  });
}
