/**
 * A queued mail's words, sealed at rest (issue 47, decision 0052): no secret at rest in clear.
 *
 * Mails carry bearer secrets (a gift card's code and print link, the buyer's change link, login,
 * verify and deletion links, pay links, unsubscribe tokens in List-Unsubscribe…). From the moment
 * a mail is queued, its subject, text, html, headers and attachments are one AES-256-GCM sealed
 * value (api/lib/keys.ts, the private records' key), bound to the outbox row's id, so a dump, a
 * backup, the PGlite folder or its WAL hold only ciphertext. The sender opens it at send time;
 * once sent, the body is dropped (outbox.repo.ts markMailSent).
 *
 * The keys: queueMails takes the caller's transaction and no environment (some fifty use-cases
 * call it), so the outbox's keyring is module state, set explicitly by the composition root
 * (api/boot.ts createServices calls `useOutboxKeys(keyringOf(env))`) before anything is queued.
 * A process normally has one environment; when it builds services more than once (the tests, a
 * restore drill), the keys of every environment it was given stay known for opening, and the last
 * one given seals. A row sealed with a key this process does not know is not sent: it is failed
 * with a plain reason, and opens again once the key is configured (PRIVATE_RECORDS_OLD_KEYS).
 */
import { open, seal, SealError, type Keyring, type RecordKey } from '../lib/keys.ts';
import type { OutgoingMail } from '../services/mail/index.ts';

/** The words of a mail: what is sealed at rest. */
export interface MailWords {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  attachments: NonNullable<OutgoingMail['attachments']>;
}

const known = new Map<string, RecordKey>();
let sealing: RecordKey | undefined;

/** Sets the keys the outbox seals with (this one's current key) and opens with (every key given so far). */
export function useOutboxKeys(ring: Keyring): void {
  for (const key of ring.byId.values()) known.set(key.id, key);
  sealing = ring.current;
}

function outboxKeyring(): Keyring {
  if (!sealing) throw new Error('The mail outbox has no key: createServices (api/boot.ts) sets it with useOutboxKeys before a mail is queued');
  return { current: sealing, byId: known, source: 'environment' };
}

/** What binds a sealed mail to its row: a sealed body copied to another row does not open. */
const contextOf = (id: string) => `mail_outbox:${id}`;

/** The words of `mail`, sealed for the outbox row `id`. */
export function sealMail(id: string, mail: OutgoingMail): { keyId: string; sealed: string } {
  const words: MailWords = { subject: mail.subject, text: mail.text, html: mail.html ?? '', headers: mail.headers ?? {}, attachments: mail.attachments ?? [] };
  return seal(outboxKeyring(), contextOf(id), JSON.stringify(words));
}

/** The words of the row `id`, opened; a SealError when no known key opens them. */
export function openMail(id: string, keyId: string, sealed: string): MailWords {
  return JSON.parse(open(outboxKeyring(), contextOf(id), keyId, sealed)) as MailWords;
}

/** `npm run rotate-keys`: the row's words opened with any key of `ring` and sealed again with its current key. */
export function resealMail(ring: Keyring, id: string, keyId: string, sealed: string): { keyId: string; sealed: string } {
  return seal(ring, contextOf(id), open(ring, contextOf(id), keyId, sealed));
}

/** Why a row could not be opened, said without its content. */
export const unopenedReason = (err: unknown) =>
  err instanceof SealError ? `not sent: its words do not open here (${err.message})` : `not sent: its words do not open here (${String(err)})`;
