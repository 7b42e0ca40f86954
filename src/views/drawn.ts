/**
 * A number per figures object, so a view can mark which figures it drew (data-drawn): the views drawn from the
 * figures lag the store by a frame or more (deferred), and "take me there" waits until they have caught up.
 */
const ids = new WeakMap<object, string>();
let next = 0;

export function drawnId(figures: object): string {
  let id = ids.get(figures);
  if (id === undefined) {
    id = String(++next);
    ids.set(figures, id);
  }
  return id;
}
