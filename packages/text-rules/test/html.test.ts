import { describe, expect, it } from 'vitest';
import { html, jsonIsland } from '../src/index.js';

describe('html', () => {
  it('escapes every interpolated value that is not Html itself', () => {
    const name = '<img src=x onerror=alert(1)>"\'&';
    expect(html`<p title="${name}">${name}</p>`.text).toBe(
      '<p title="&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;">&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;</p>',
    );
    expect(html`<ul>${['<a>', html`<li>b</li>`]}</ul>`.text).toBe('<ul>&lt;a&gt;<li>b</li></ul>');
  });

  it('keeps a JSON island from closing its element', () => {
    expect(jsonIsland('d', { a: '</script><!--\u2028' }).text).toBe(
      '<script type="application/json" id="d">{"a":"\\u003c/script\\u003e\\u003c!--\\u2028"}</script>',
    );
  });
});
