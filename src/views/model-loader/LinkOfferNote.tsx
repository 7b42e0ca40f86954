import { useSlot } from './slot';

/** A model the link names: nothing is fetched until the person clicks, and a host other than the Hub is said plainly. */
export function LinkOfferNote() {
  const { store: useModel } = useSlot();
  const offer = useModel((s) => s.linkOffer);
  const openHub = useModel((s) => s.openHub);
  const dismiss = useModel((s) => s.offerLink);
  if (!offer) return null;
  const { ref } = offer;
  return (
    <div className="pending" role="dialog" aria-label="model named by the link" data-testid="link-offer">
      {offer.problem ? (
        <p className="warn">The link names a model that cannot be loaded: {offer.problem}.</p>
      ) : (
        <p>
          This link names the model <strong>{ref.model}</strong> at revision <code>{ref.revision}</code>, from <strong>{offer.host}</strong>
          {offer.foreign && ' (not the Hugging Face Hub: load it only if you trust that server; your access token is not sent to it)'}. Nothing has been
          fetched.
        </p>
      )}
      <p className="row">
        {!offer.problem && (
          <button type="button" onClick={() => void openHub(ref, 'link')}>
            Look it up
          </button>
        )}
        <button type="button" onClick={() => dismiss(null)}>
          Dismiss
        </button>
      </p>
    </div>
  );
}
