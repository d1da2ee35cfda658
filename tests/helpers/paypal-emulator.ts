/**
 * The PayPal emulator driven as the buyer drives it, for tests that call a use-case directly:
 * the services' in-process emulator, reached with no server in between.
 */
import type { Services } from '../../api/services/index.ts';
import { EMULATOR_CLIENT_ID, EMULATOR_CLIENT_SECRET } from '../../api/services/payments/emulator.ts';

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

/** The order as PayPal itself holds it (the emulator's REST answer, read with its own token): what PayPal shows the payer. */
export async function orderInEmulator(services: Pick<Services, 'paypalEmulator'>, orderId: string): Promise<{ purchase_units: { description?: string }[] }> {
  if (!services.paypalEmulator) throw new Error('The PayPal emulator is not standing in (PayPal keys are set)');
  const token = await services.paypalEmulator.request('/v1/oauth2/token', {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${EMULATOR_CLIENT_ID}:${EMULATOR_CLIENT_SECRET}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const res = await services.paypalEmulator.request(`/v2/checkout/orders/${encodeURIComponent(orderId)}`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  if (res.status !== 200) throw new Error(`order ${orderId}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { purchase_units: { description?: string }[] };
}
