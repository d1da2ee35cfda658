/**
 * The mails of the visitors' forms: the teacher's notifications (reply goes to the visitor) and
 * the visitors' confirmations. Every value is passed to renderMail as text, which escapes it,
 * so what a visitor types never becomes markup. Confirmations don't echo the visitor's free
 * text: the form can't be used to send someone else a message of the sender's choosing. Signed
 * with her yoga brand (`brand`, api/site/brand.ts), the site's name in the footer of every page.
 */
import type { Env } from '../env.ts';
import { signToken } from '../lib/signed-token.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { escapeHtml, exclaim, mail, oneLine, renderMail, siteFooter, type MailContent } from '../mail/layout.ts';

/** Purpose of the signed token in unsubscribe links (api/lib/signed-token.ts). */
export const UNSUBSCRIBE_PURPOSE = 'unsubscribe';

// ---------------------------------------------------------------------------------------------
// Home page: free 30-minute meeting request

export interface BookingRequestMail {
  name: string;
  email: string;
  phone: string;
  sessionType: string;
  message: string;
}

export function bookingRequestMails(env: Env, brand: string, r: BookingRequestMail): OutgoingMail[] {
  return [
    mail(
      env.TEACHER_EMAIL,
      `Free meeting request from ${oneLine(r.name)} (${r.sessionType})`,
      {
        heading: 'New request for a free 30-minute meeting',
        paragraphs: [
          `Name: ${r.name}`,
          `Email: ${r.email}`,
          `Phone: ${r.phone}`,
          `Session type: ${r.sessionType}`,
          `Message:\n${r.message || '(none)'}`,
          'Reply to this mail to answer the visitor directly.',
        ],
      },
      { about: r.email, headers: { 'Reply-To': r.email } },
    ),
    mail(r.email, 'Your free 30-minute meeting request was received', {
      heading: exclaim('Thank you', r.name),
      paragraphs: [
        `Your request for a free 30-minute online meeting about ${r.sessionType} has been received.`,
        'I will write back soon to find a time that suits you.',
      ],
      footer: siteFooter(env, brand),
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Contact form

export interface ContactMail {
  name: string;
  email: string;
  message: string;
}

export function contactMails(env: Env, brand: string, m: ContactMail): OutgoingMail[] {
  return [
    mail(
      env.TEACHER_EMAIL,
      `Message from ${oneLine(m.name)} through the contact form`,
      {
        heading: 'New message from the contact form',
        paragraphs: [`Name: ${m.name}`, `Email: ${m.email}`, `Message:\n${m.message}`, 'Reply to this mail to answer the visitor directly.'],
      },
      { about: m.email, headers: { 'Reply-To': m.email } },
    ),
    mail(m.email, 'Thank you for your message', {
      heading: exclaim('Thank you', m.name),
      paragraphs: ['Your message has been received. I will get back to you soon.'],
      footer: siteFooter(env, brand),
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Newsletter

/**
 * The unsubscribe page link and the RFC 8058 headers every mail to a subscriber carries:
 * List-Unsubscribe (one-click URL first, mailto as the fallback) and List-Unsubscribe-Post.
 */
export function unsubscribeLinks(env: Env, email: string) {
  const token = encodeURIComponent(signToken(env.APP_SECRET, UNSUBSCRIBE_PURPOSE, email));
  const page = `${env.SITE_URL}/unsubscribe?token=${token}`;
  const oneClick = `${env.SITE_URL}/api/subscribers/one-click?token=${token}`;
  return {
    page,
    oneClick,
    headers: {
      'List-Unsubscribe': `<${oneClick}>, <mailto:${env.TEACHER_EMAIL}?subject=Unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** The postal address as a footer line (its lines joined): CAN-SPAM's physical address, beside the unsubscribe. */
export const postalAddressLine = (address: string) =>
  address
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(', ');

/**
 * Any newsletter or other mail to a subscriber: content plus her postal address (CAN-SPAM 15
 * U.S.C. 7704(a)(5); the one rule of which: contract/settings.ts mailPostalAddress, read by
 * api/settings/settings.repo.ts postalAddressOf), the unsubscribe line (a real link in the html)
 * and headers. `postalAddress` '' only where no newsletter can be sent yet (the welcome of a
 * subscriber, a preview or test to her): a newsletter's send is refused without one.
 */
export function newsletterMail(env: Env, to: string, subject: string, content: MailContent, postalAddress: string): OutgoingMail {
  const links = unsubscribeLinks(env, to);
  const line = `Unsubscribe: ${links.page}`;
  const address = postalAddressLine(postalAddress);
  const rendered = renderMail({
    ...content,
    footer: [...(content.footer ?? []), ...(address ? [address] : []), `You receive this because ${to} subscribed at ${env.SITE_URL}.`, line],
  });
  // renderMail writes the footer as text; the one line we wrote ourselves becomes a link.
  const escaped = escapeHtml(links.page);
  const html = rendered.html.replace(`Unsubscribe: ${escaped}`, `<a href="${escaped}" style="color:#666">Unsubscribe</a>`);
  return { to, subject, text: rendered.text, html, headers: links.headers };
}

export function welcomeMail(env: Env, brand: string, email: string, postalAddress: string): OutgoingMail {
  return newsletterMail(
    env,
    email,
    `Welcome to the ${brand} newsletter`,
    {
      heading: 'Thanks for signing up!',
      paragraphs: [
        'You are on the list for news about yoga classes, workshops, yoga therapy and new chocolates.',
        'Mails come rarely, and every one of them has a link to leave the list with one click.',
      ],
    },
    postalAddress,
  );
}
