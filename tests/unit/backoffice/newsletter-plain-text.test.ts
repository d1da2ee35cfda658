/** Issue 20: the newsletter's plain-text part is text a person reads, not Markdown (api/lib/markdown.ts markdownToText). */
import { describe, expect, it } from 'vitest';
import { markdownToText } from '../../../api/lib/markdown.ts';
import { newsletterIssueMail } from '../../../api/backoffice/mails.ts';
import { loadEnv } from '../../../api/env.ts';

describe('markdownToText', () => {
  it('writes headings as lines, bold and emphasis without their marks, links as "text (url)"', () => {
    expect(markdownToText('## Solstice gathering\n\nJoin me on **December 21** for a *slow* flow at [the studio](https://example.com/studio).')).toBe(
      'Solstice gathering\n\nJoin me on December 21 for a slow flow at the studio (https://example.com/studio).',
    );
  });

  it('writes lists with "- " (numbered ones with their numbers), nested ones indented', () => {
    expect(markdownToText('- mats\n- **blocks**\n  - two of them\n\n3. breathe\n4. rest')).toBe('- mats\n- blocks\n  - two of them\n\n3. breathe\n4. rest');
  });

  it('says an autolink once, keeps quotes and code readable, and leaves no Markdown marks', () => {
    const text = markdownToText(
      '# Hi\n\nSee <https://example.com>.\n\n> Be kind\n\n```\nbreathe in\nbreathe out\n```\n\n---\n\nLine one  \nline two\n\n![Cacao pods](https://example.com/pods.jpg)',
    );
    expect(text).toBe(
      'Hi\n\nSee https://example.com.\n\n> Be kind\n\n    breathe in\n    breathe out\n\n----------\n\nLine one\nline two\n\nCacao pods (https://example.com/pods.jpg)',
    );
    expect(text).not.toMatch(/\*\*|##|\]\(/);
  });

  it('leaves an unsafe link as the words typed (it was never a link)', () => {
    expect(markdownToText('[click](javascript:alert(1))')).toBe('[click](javascript:alert(1))');
  });

  it('is the text part of the newsletter mail, while the html part keeps the formatting', () => {
    const env = loadEnv({ NODE_ENV: 'test' });
    const mail = newsletterIssueMail(
      env,
      'reader@example.com',
      {
        subject: 'Solstice',
        body: '## Solstice\n\n**December 21**, [tickets](https://example.com/t)',
      },
      'PO Box 1, Portland, OR 97201',
    );
    expect(mail.text).toContain('Solstice\n\nDecember 21, tickets (https://example.com/t)');
    expect(mail.text).not.toContain('**');
    expect(mail.text).not.toContain('## ');
    expect(mail.html).toContain('<strong>December 21</strong>');
  });
});
