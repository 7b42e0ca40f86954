import { describe, expect, it } from 'vitest';
import { changedChars } from '../../src/state/inspector/conversation-slice';

describe('a paste is scored at once, typing after a pause', () => {
  it('counts the characters between the common prefix and suffix', () => {
    expect(changedChars('hello world', 'hello world')).toBe(0);
    expect(changedChars('hello world', 'hello, world')).toBe(1);
    expect(changedChars('abc', 'aXYZc')).toBe(3);
    expect(changedChars('', 'x'.repeat(500))).toBe(500);
    expect(changedChars('aaaa', 'aa')).toBe(2);
  });
});

describe('the turn scored when the text changes', () => {
  it('goes back to the last answer for a new conversation or a paste, and stays for typing and the editor', async () => {
    const { useInspector } = await import('../../src/state/inspector-store');
    const { EXAMPLES } = await import('../../src/state/examples');
    const s = () => useInspector.getState();
    s().setText(EXAMPLES[0]!.text, true);
    s().setTurn(5);
    // Typing a character keeps the turn the person picked.
    s().setText(`${s().text} `);
    expect(s().turn).toBe(5);
    // An edit in the message editor (which rewrites the whole text as JSON) keeps it too.
    s().setMessages(s().parsed.conversation!.messages);
    expect(s().turn).toBe(5);
    expect(s().text.startsWith('[')).toBe(true);
    // A paste of another conversation scores its last answer.
    s().setText(EXAMPLES[2]!.text);
    expect(s().turn).toBeNull();
    s().stopAnalysis();
  });
});

describe("a lesson step's setup", () => {
  it('sets the example, policy, turn and models it names, and clears what the step before left', async () => {
    const { useInspector } = await import('../../src/state/inspector-store');
    const { applySetup, setupLine } = await import('../../src/state/lesson-setup');
    const { EXAMPLES } = await import('../../src/state/examples');
    const s = () => useInspector.getState();
    s().setText(EXAMPLES[1]!.text, true);
    s().setCompare(true);
    s().setTurn(4);
    s().setOff([[0, 1]]);
    useInspector.setState({ generated: [{ 'window:1': 'Move: north' }] });
    applySetup({ example: 'maze', policy: 'full', turn: null, compareModels: true });
    expect(s()).toMatchObject({
      exampleName: 'maze',
      policies: ['full'],
      compare: false,
      compareModels: true,
      turn: null,
      off: [],
      generated: [],
      heads: false,
    });
    expect(setupLine({ example: 'maze', policy: 'clip:12:1', turn: 3, heads: true })).toBe(
      'This step starts from: Maze episode · Clip-12→1 · turn 3 · every head on.',
    );
    expect(setupLine({ example: 'maze', policy: 'full', turn: null })).toBe(
      'This step starts from: Maze episode · Full (the whole conversation) · last answer.',
    );
    expect(() => applySetup({ example: 'nope', policy: 'full', turn: null })).toThrow('no example "nope"');
    // W, H and L: a step that names them sets them, the next step goes back to the papers'.
    applySetup({ example: 'maze', policy: 'full', turn: null, numbers: { window: 6, clipAt: 6, clipTo: 1 } });
    expect(s().policyNumbers).toEqual({ window: 6, clipAt: 6, clipTo: 1 });
    // Set, not said: the policy buttons and the table name them.
    expect(setupLine({ example: 'maze', policy: 'full', turn: null, contexts: true, numbers: { window: 6, clipAt: 6, clipTo: 1 } })).toBe(
      'This step starts from: Maze episode · Full (the whole conversation) · last answer.',
    );
    expect(setupLine({ example: 'maze', policy: 'full', turn: null, numbers: { window: 6, clipAt: 6, clipTo: 1 } })).toBe(
      'This step starts from: Maze episode · Full (the whole conversation) · last answer.',
    );
    applySetup({ example: 'maze', policy: 'full', turn: null });
    expect(s().policyNumbers).toEqual({ window: 6, clipAt: 12, clipTo: 1 });
    s().stopAnalysis();
  });
});

describe("the policy bar's numbers", () => {
  it('take what a chosen Window, Clip or Summary says, refuse numbers a policy would not parse, and follow a link', async () => {
    const { useInspector } = await import('../../src/state/inspector-store');
    const { DEFAULT_VIEW } = await import('../../src/state/url-state');
    const s = () => useInspector.getState();
    s().setPolicy('clip:6:2');
    expect(s().policyNumbers).toEqual({ window: 6, clipAt: 6, clipTo: 2 });
    s().setPolicy('window:3');
    expect(s().policyNumbers).toEqual({ window: 3, clipAt: 6, clipTo: 2 });
    for (const bad of [
      { window: 3, clipAt: 0, clipTo: 0 },
      { window: 3, clipAt: 4, clipTo: 4 },
      { window: -1, clipAt: 4, clipTo: 1 },
      { window: 3, clipAt: 4.5, clipTo: 1 },
    ]) {
      s().setPolicyNumbers(bad);
      expect(s().policyNumbers, JSON.stringify(bad)).toEqual({ window: 3, clipAt: 6, clipTo: 2 });
    }
    s().setPolicyNumbers({ window: 4, clipAt: 8, clipTo: 2 });
    expect(s().policyNumbers).toEqual({ window: 4, clipAt: 8, clipTo: 2 });
    s().applyView({ ...DEFAULT_VIEW, policies: ['summary:9:3'] }, null);
    expect(s().policyNumbers).toEqual({ window: 6, clipAt: 9, clipTo: 3 });
    s().stopAnalysis();
  });
});
