/**
 * An error a person can act on: it names the file of the model folder and, when there is one,
 * the field inside it. Every loader and builder failure is one of these, never a bare TypeError.
 */
export class ModelError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly field?: string,
  ) {
    super(`${file}${field ? ` (${field})` : ''}: ${detail}`);
    this.name = 'ModelError';
  }
}
