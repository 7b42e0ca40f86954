/**
 * The demo model on a conversation of the person's own: its figures are real (its attention), but it is a
 * 1.7M-parameter model trained on this tool's three kinds of example only; a real chat model reads the text.
 */
export function DemoOnOtherText() {
  return (
    <p className="warn" data-testid="demo-other-text">
      These figures are the demo model's, a tiny model trained only on mazes, arithmetic and short list chats like the examples: on other text it cannot read
      the words, so its attention says little about how a real model would answer.{' '}
      <button type="button" className="linkbutton" onClick={() => document.getElementById('model-panel')?.scrollIntoView({ block: 'start' })}>
        Load a real chat model
      </button>
    </p>
  );
}
