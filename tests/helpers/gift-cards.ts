/** Gift cards in API tests (issue 33): one she issues, and what a code holds, as the public look-up says. */
import { expect } from 'vitest';
import { adminCookie } from './auth.ts';
import type { TestServer } from './server.ts';
import type { AdminGiftCardView } from '../../contract/gift-cards.ts';

let n = 0;
/** An address no other test uses. */
export const uniqueAddress = (who: string) => `${who}-${Date.now().toString(36)}-${++n}@example.com`;

/** A card she issues today for `amountCents`: its id and its code. */
export async function issueCard(server: TestServer, amountCents: number): Promise<{ _id: string; code: string }> {
  const res = await server.api('/api/admin/gift-cards', {
    method: 'POST',
    json: { amountCents, recipientName: 'Rae Card', recipientEmail: uniqueAddress('rae') },
    headers: { cookie: await adminCookie(server) },
  });
  expect(res.status).toBe(201);
  return res.json();
}

/** A card as her Gift cards list shows it (issue 50: its money by where it went). */
export async function listedCard(server: TestServer, id: string) {
  const res = await server.api('/api/admin/gift-cards', { headers: { cookie: await adminCookie(server) } });
  return ((await res.json()) as AdminGiftCardView[]).find((g) => g._id === id);
}

/** What the card of `code` holds, in cents. */
export const cardBalance = async (server: TestServer, code: string) =>
  ((await (await server.api(`/api/gift-cards/balance?code=${encodeURIComponent(code)}`)).json()) as { balanceCents: number }).balanceCents;
