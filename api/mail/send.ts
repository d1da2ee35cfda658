/**
 * What the server log may say about a mail: since issue 21 every mail leaves through the outbox
 * (api/mail/outbox.ts), which logs a failed try with the address masked.
 */

/** An address as the server log may show it: enough to tell mails apart, not to read who. */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email[0]}…${email.slice(at)}` : '…';
}
