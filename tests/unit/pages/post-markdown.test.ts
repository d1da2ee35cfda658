/** A journal post's Markdown (api/lib/markdown.ts, issue 22): the newsletter's rules, and her photos inside the text. */
import { describe, expect, it } from 'vitest';
import { excerptOf, postImageIds, postWords, renderMarkdown, renderPostMarkdown } from '../../../api/lib/markdown.ts';
import type { PictureView } from '../../../contract/images.ts';

const ID = '0f8c2d6e-1b7a-4c3e-9d5f-2a6b8c0e4f11';
const view: PictureView = {
  src: `/api/images/${ID}`,
  width: 1600,
  height: 1067,
  placeholder: '',
  avif: `/api/images/${ID}/320.avif 320w`,
  webp: `/api/images/${ID}/320.webp 320w, /api/images/${ID} 1600w`,
};
const pictures = new Map([[ID, view]]);

describe('renderPostMarkdown', () => {
  it('makes her uploaded photo the pipeline’s <picture> at its intrinsic size, its alt escaped', () => {
    const html = renderPostMarkdown(`![A "bowl" <of> cacao](/api/images/${ID})`, { pictures });
    expect(html).toContain(`<source type="image/avif" srcset="/api/images/${ID}/320.avif 320w"`);
    expect(html).toContain(`<source type="image/webp" srcset="/api/images/${ID}/320.webp 320w, /api/images/${ID} 1600w"`);
    expect(html).toContain(
      `<img src="/api/images/${ID}" alt="A &quot;bowl&quot; &lt;of&gt; cacao" width="1600" height="1067" loading="lazy" decoding="async" />`,
    );
  });

  it('in the feed: a plain <img> with the absolute address', () => {
    const html = renderPostMarkdown(`![Cacao](/api/images/${ID})`, { pictures, origin: 'https://maya.example' });
    expect(html).toBe(`<p><img src="https://maya.example/api/images/${ID}" width="1600" height="1067" alt="Cacao" /></p>\n`);
  });

  it('the photo path is for images only; a photo deleted since leaves its words; a picture from elsewhere is a link', () => {
    const html = renderPostMarkdown(
      `[words](/api/images/${ID}) ![gone](/api/images/11111111-2222-4333-8444-555555555555) ![far](https://example.com/p.jpg) [ok](https://example.com)`,
      { pictures },
    );
    expect(html).toBe('<p>words gone <a href="https://example.com/p.jpg">far</a> <a href="https://example.com">ok</a></p>\n');
  });

  it('keeps the newsletter’s rules: no HTML, no script links, and any other path is not a link', () => {
    const html = renderPostMarkdown('<b>x</b> [a](javascript:alert(1)) [b](/admin) ![c](/images/x.svg) ![d](data:image/png;base64,AA)', { pictures });
    expect(html).not.toMatch(/<b>|<img|href="(javascript|data|\/)/);
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('leaves the newsletter’s renderer as it was: no photo paths there', () => {
    expect(renderMarkdown(`![x](/api/images/${ID})`)).not.toContain('<img');
  });
});

describe('words of a post', () => {
  it('finds her photos once each, in order', () => {
    expect(postImageIds(`![a](/api/images/${ID})\n\n- ![b](/api/images/${ID.toUpperCase()})\n\n![c](https://example.com/x.jpg)`)).toEqual([ID]);
  });

  it('makes the excerpt of her paragraphs, cut at a word, and counts every word', () => {
    const body = `## A heading\n\nFirst **paragraph** here.\n\n- a list item\n\n> a quote\n\n![photo](/api/images/${ID})\n\nSecond [one](https://example.com).`;
    expect(excerptOf(body)).toBe('First paragraph here. Second one.');
    expect(postWords(body).words).toBe(12);
    const long = `${'word '.repeat(100).trim()}.`;
    const cut = excerptOf(long, 50);
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(cut).toMatch(/^(word )+word…$/);
    // Only a list: its words all the same.
    expect(excerptOf('- one\n- two')).toBe('one two');
  });
});
