/**
 * The newsletter mail: the admin's subject as the heading, her Markdown rendered safely
 * (markdown.ts) in the site's mail layout, the same words as plain text (not Markdown: issue 20,
 * markdownToText) for the plain-text part, and her postal address (CAN-SPAM, decision 0059), the
 * unsubscribe line, link and RFC 8058 headers every newsletter carries (forms/mails.ts).
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { newsletterMail } from '../forms/mails.ts';
import { oneLine } from '../mail/layout.ts';
import { markdownToText, renderMailMarkdown } from '../lib/markdown.ts';

export function newsletterIssueMail(
  env: Env,
  to: string,
  letter: { subject: string; body: string },
  postalAddress: string,
  options: { test?: boolean; idempotencyKey?: string } = {},
): OutgoingMail {
  const subject = oneLine(letter.subject, 150);
  const mail = newsletterMail(
    env,
    to,
    options.test ? `[Test] ${subject}` : subject,
    { heading: subject, paragraphs: [markdownToText(letter.body)], bodyHtml: renderMailMarkdown(letter.body) },
    postalAddress,
  );
  return options.idempotencyKey ? { ...mail, idempotencyKey: options.idempotencyKey } : mail;
}
