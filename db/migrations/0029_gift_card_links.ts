import type { Kysely } from 'kysely';
import { appendNavLink } from './nav-links.ts';

/**
 * Issue 33: /gift-cards is linked from the footer (on every page of both brands) and the shop's
 * navigation. A fresh database gets the links from the YAML; a database whose site content she
 * already edited gets them here, in the draft and as a new published revision, unless a link to
 * /gift-cards is there. Data only: nothing to undo in the schema.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addGiftCardLinks(db);
}

/** Exported for its test. */
export async function addGiftCardLinks(db: Kysely<any>): Promise<void> {
  await appendNavLink(db, ['footerNav', 'shopNav'], { label: 'Gift cards', href: '/gift-cards' }, (href) => href === '/gift-cards');
}

export async function down(): Promise<void> {
  // Her navigation is hers to edit: a link she may have kept or moved is not taken away.
}
