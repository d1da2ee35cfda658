/**
 * The PayPal emulator driven as the buyer drives it, for tests that call a use-case directly:
 * the services' in-process emulator, reached with no server in between.
 */
import type { Services } from '../../api/services/index.ts';

/**
 * What the buyer does in PayPal's window. The body names the payer (givenName, surname, email),
 * may pick a shipping address, and with `captureStatus: 'PENDING'` makes the later capture
 * PENDING, as PayPal answers for an eCheck.
 */
export async function approveInEmulator(
  services: Pick<Services, 'paypalEmulator'>,
  orderId: string,
  body: Record<string, unknown> = { givenName: 'Pat', surname: 'Buyer', email: 'pat.buyer@example.com' },
): Promise<void> {
  if (!services.paypalEmulator) throw new Error('The PayPal emulator is not standing in (PayPal keys are set)');
  const res = await services.paypalEmulator.request(`/v2/checkout/orders/${encodeURIComponent(orderId)}/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`approve ${orderId}: ${res.status} ${await res.text()}`);
}
