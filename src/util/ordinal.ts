/** 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st: a place said in words (a token's place in its message, a head counted from 1). */
export const ordinal = (n: number): string => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
