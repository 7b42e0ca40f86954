import { describe, expect, it } from 'vitest';
import type { HeadRef } from '../../src/analysis/ablation';
import { decodeView, DEFAULT_VIEW, encodeView, fromBase64Url, MAX_LINK_CONVERSATION, toBase64Url } from '../../src/state/url-state';

describe('the link', () => {
  it('round-trips every field, the conversation included', () => {
    const text = '[{"role":"user","content":"héllo ✓"},{"role":"assistant","content":"hi"}]';
    const view = {
      ...DEFAULT_VIEW,
      model: 'acme/tiny',
      revision: 'v2',
      hub: 'http://127.0.0.1:9/hub',
      backend: 'wasm' as const,
      compared: [{ model: 'acme/twin', revision: 'v1', quant: 'none' as const }],
      policies: ['clip:12:1', 'ao'],
      compare: true,
      turn: 3,
      head: 2,
      layer: 1,
      radius: 7,
      heads: true,
      off: [
        [0, 2],
        [3, 1],
      ] as HeadRef[],
    };
    const { query, fragment, conversationCarried } = encodeView(view, text, null);
    // The heads switched off travel as layer.head.
    expect(query).toContain('heads=1&off=0.2%2C3.1');
    expect(conversationCarried).toBe(true);
    // The conversation is in the fragment, which the browser never sends to the page's server.
    expect(query).not.toContain('conv=');
    expect(fragment).toMatch(/^conv=/);
    const back = decodeView(`?${query}`, `#${fragment}`);
    expect(back.problems).toEqual([]);
    expect(back.view).toEqual({ ...view, conversation: { text } });
    expect(decodeView(`?${encodeView({ ...DEFAULT_VIEW, backend: 'webgpu' }, 'x', null).query}`).view.backend).toBe('webgpu');
    expect(decodeView('?backend=tpu').problems).toContain('backend=tpu is not auto, wasm or webgpu');
    expect(decodeView('?off=3.x').problems).toEqual(['off=3.x: "3.x" is not a head: write layer.head, e.g. 3.0']);
    // The weight precision of each model travels with the link, each compared model's with it.
    const three = [
      { model: 'demo', revision: 'main', quant: 'q8' as const },
      { model: 'acme/other', revision: 'v3', quant: 'none' as const },
      { model: 'demo-cpl', revision: 'main', quant: 'q4g128' as const },
    ];
    const q3 = encodeView({ ...DEFAULT_VIEW, quant: 'q4g128', compared: three }, null, null).query;
    expect(q3).toBe('model=demo&q=q4g128&policy=full&mb=demo&qb=q8&mc=acme%2Fother&mcrev=v3&md=demo-cpl&qd=q4g128');
    expect(decodeView(`?${q3}`).view).toMatchObject({ quant: 'q4g128', compared: three });
    expect(decodeView('?q=q3').problems).toEqual(['q=q3 is not none, q8, q4, q4g128']);
    // A compared model: an embedded model, or a Hub id with its revision (offered; the page loads it only on a click).
    expect(decodeView('?mb=acme/other&mbrev=v3').view.compared).toEqual([{ model: 'acme/other', revision: 'v3', quant: 'none' }]);
    expect(encodeView({ ...DEFAULT_VIEW, compared: [{ model: 'demo-cpl', revision: 'v3', quant: 'none' }] }, null, null).query).not.toContain('mbrev');
    // The slots are read in order: C without B is not a link this app writes.
    expect(decodeView('?mc=demo').view.compared).toEqual([]);
    expect(decodeView('?mb=<script>&mbrev=../x').problems).toEqual(['mb=<script> is not demo, demo-cpl or a Hub model id (owner/name)']);
    expect(decodeView('?mb=acme/x&mbrev=../x&qb=q2').problems).toEqual(['mbrev=../x is not a branch, tag or commit name', 'qb=q2 is not none, q8, q4, q4g128']);
  });
  it('names an unchanged example instead of carrying its text, and says when a conversation is too long', () => {
    expect(decodeView(`?${encodeView(DEFAULT_VIEW, 'x', 'maze').query}`).view.conversation).toEqual({ example: 'maze' });
    const long = 'a'.repeat(MAX_LINK_CONVERSATION);
    const e = encodeView(DEFAULT_VIEW, long, null);
    expect(e.conversationCarried).toBe(false);
    expect(e.query).not.toContain('conv=');
    expect(e.fragment).toBe('');
  });
  it('still reads a conversation from the query string of an older link', () => {
    const { fragment } = encodeView(DEFAULT_VIEW, 'hello', null);
    expect(decodeView(`?${fragment}`).view.conversation).toEqual({ text: 'hello' });
  });
  it('skips what it cannot read and names it', () => {
    const { view, problems } = decodeView('?policy=clip:3:5,bogus,ao&turn=0&head=x&r=inf&conv=%%%');
    expect(view.policies).toEqual(['ao']);
    expect(view.turn).toBeNull();
    expect(view.head).toBe('mean');
    expect(view.radius).toBe(Infinity);
    expect(problems.join('\n')).toMatch(/clip:3:5.*L < H/);
    expect(problems.join('\n')).toContain('unknown policy "bogus"');
    expect(problems.join('\n')).toContain('turn=0');
    expect(problems.join('\n')).toContain('conversation in the link is damaged');
  });
  it('base64url survives any UTF-8', () => {
    const s = 'ü\n"<b>"🙂 +/=';
    expect(fromBase64Url(toBase64Url(s))).toBe(s);
    expect(toBase64Url(s)).not.toMatch(/[+/=]/);
  });
});
