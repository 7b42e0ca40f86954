/**
 * The values of texts seen lately, up to a number of characters in all (keys and what `charsOf` counts of
 * each value), the least recently used given up first.
 */
export class KeptByText<V> {
  private readonly kept = new Map<string, V>();
  private chars = 0;
  constructor(
    private readonly maxChars: number,
    private readonly charsOf: (v: V) => number = () => 0,
  ) {}

  get(key: string): V | undefined {
    const v = this.kept.get(key);
    if (v !== undefined) {
      // Most recent last.
      this.kept.delete(key);
      this.kept.set(key, v);
    }
    return v;
  }

  set(key: string, v: V): void {
    if (this.kept.has(key)) return;
    this.kept.set(key, v);
    this.chars += key.length + this.charsOf(v);
    while (this.chars > this.maxChars && this.kept.size > 1) {
      const [oldest, value] = this.kept.entries().next().value!;
      this.chars -= oldest.length + this.charsOf(value);
      this.kept.delete(oldest);
    }
  }
}
