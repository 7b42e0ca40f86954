/** Bad input from the person (not a bug): printed without a stack trace. */
export class InputError extends Error {
  override name = 'InputError';
}
