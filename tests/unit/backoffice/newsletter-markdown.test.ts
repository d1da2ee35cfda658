/** The newsletter's Markdown (api/lib/markdown.ts): formatting yes, markup and unsafe links no. */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../api/lib/markdown.ts';

describe('renderMarkdown', () => {
  it('renders headings, emphasis, lists and http(s) or mailto links', () => {
    const html = renderMarkdown('# Hi\n\n*soft* **bold**\n\n- one\n- two\n\n[site](https://example.com) <mailto:a@example.com>');
    expect(html).toContain('<h1>Hi</h1>');
    expect(html).toContain('<em>soft</em> <strong>bold</strong>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<a href="https://example.com">site</a>');
    expect(html).toContain('<a href="mailto:a@example.com">');
  });

  it('escapes raw HTML and never makes a script, an event handler or a javascript:, data: or vbscript: link', () => {
    const html = renderMarkdown(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '[a](javascript:alert(1))',
        '[b](JaVaScRiPt:alert(1))',
        '[c](  javascript:alert(1))',
        '[d](data:text/html;base64,PHNjcmlwdD4=)',
        '[e](vbscript:msgbox(1))',
        '![f](javascript:alert(1))',
        '<javascript:alert(1)>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<script|<img[^>]*onerror|href="\s*(javascript|data|vbscript):|src="javascript:/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
