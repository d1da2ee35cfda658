import { request } from '../../lib/http';
import type { BookResponse } from '../../../contract/booking.ts';
import type { User } from '../../stores/user';

/** One way of paying for a booking, as PUT /book takes it (issue 32 added the credit, issue 33 the gift card and the amount it pays). */
export type BookPayment =
  | { paypalOrderId: string }
  | { couponCode: string }
  | { useCredit: true }
  | { giftCardCode: string; amount: number }
  | { paypalOrderId: string; giftCardCode: string; amount: number };

/**
 * Books `slotId` for the signed-in client (PUT /api/bookings/{slotId}/book): their name and
 * address, the session, and one way of paying. The one place the booking pages (the spec's, the
 * guided one, a week of a series booked alone) write that request; the server decides the rest.
 */
export function bookSlot(user: User, slotId: string, session: { sessionType: string; message: string }, payment: BookPayment) {
  return request<BookResponse>('PUT', `/api/bookings/${encodeURIComponent(slotId)}/book`, {
    body: { userId: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email, ...session, ...payment },
    session: 'user',
  });
}
