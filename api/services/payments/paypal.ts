/**
 * The PayPal Orders v2 REST client: the only code that talks to PayPal. In development it
 * talks to the local emulator (api/services/payments/emulator.ts) through an injected fetch;
 * with keys it talks to api-m.paypal.com. Amounts cross this boundary in integer cents.
 */

export interface PayPalConfig {
  clientId: string;
  clientSecret: string;
  /** e.g. https://api-m.sandbox.paypal.com */
  baseUrl: string;
  /** The id PayPal gave the site's webhook (PAYPAL_WEBHOOK_ID); without it no event is ever verified. */
  webhookId?: string;
  fetch?: typeof fetch;
  /** How long one call may take before it counts as PayPal being unavailable (default 30 s). */
  timeoutMs?: number;
}

/** The headers PayPal signs a webhook delivery with; `get` as on a Fetch Headers. */
export interface WebhookHeaders {
  get(name: string): string | null | undefined;
}

export interface CreatedOrder {
  id: string;
  status: string;
}

/** Where PayPal says to send the goods: the buyer's chosen address, as one would write it on a parcel. */
export interface ShipTo {
  name: string;
  /** Postal lines joined by newlines: street, street 2, "City, ST 12345", country code. */
  address: string;
}

export interface CapturedOrder {
  orderId: string;
  status: string;
  captureId: string;
  captureStatus: string;
  amountCents: number;
  currency: string;
  payer: { name: string; firstName: string; email: string };
  /** Null when the order was created without shipping or PayPal sent no address. */
  shipTo: ShipTo | null;
}

/** An order amount's parts, in cents (PayPal's amount.breakdown). */
export interface AmountBreakdown {
  itemsCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
}

/** The country and state of a shipping address (admin_area_1, upper-cased), or null without one. */
export function regionOf(shipping: PayPalShippingJson | undefined): { country: string; state: string } | null {
  const a = shipping?.address;
  if (!a || (!a.admin_area_1 && !a.country_code)) return null;
  return { country: clean(a.country_code, 2).toUpperCase(), state: clean(a.admin_area_1, 40).toUpperCase() };
}

export class PayPalError extends Error {
  readonly status: number;
  /** PayPal's issue code, e.g. ORDER_NOT_APPROVED, when it sent one. */
  readonly issue: string | undefined;
  constructor(message: string, status: number, issue?: string) {
    super(message);
    this.name = 'PayPalError';
    this.status = status;
    this.issue = issue;
  }
}

export interface Payments {
  /** 'paypal' or 'emulator': the banner and /api/config/paypal say which. */
  readonly kind: 'paypal' | 'emulator';
  /** Public client id handed to the browser SDK. */
  readonly clientId: string;
  /** `referenceId` ties the order to what it pays for (e.g. a slot or a cart); getOrder returns it. */
  /**
   * `shipping: 'collect'` lets the buyer pick a shipping address in PayPal's window (the capture
   * returns it); 'none' (the default: sessions, local pickup) asks for none.
   */
  createOrder(input: {
    amountCents: number;
    currency?: string;
    description?: string;
    referenceId?: string;
    shipping?: 'collect' | 'none';
    /** What the amount is made of (amount.breakdown: item_total, discount, shipping, tax_total); it must add up to amountCents. */
    breakdown?: AmountBreakdown;
  }): Promise<CreatedOrder>;
  /**
   * `captured`: the capture, when the order has one (status COMPLETED): how a lost capture answer is found again.
   * `shipToRegion`: the country and state (admin_area_1) of the shipping address the buyer chose, once approved (issue 24).
   */
  getOrder(orderId: string): Promise<{
    id: string;
    status: string;
    amountCents: number;
    currency: string;
    referenceId: string | undefined;
    captured?: CapturedOrder;
    shipToRegion?: { country: string; state: string } | null;
  }>;
  /** `requestId` (PayPal-Request-Id) defaults to `capture-{orderId}`: a repeat is answered with the first capture. */
  captureOrder(orderId: string, requestId?: string): Promise<CapturedOrder>;
  refundCapture(captureId: string): Promise<{ id: string; status: string }>;
  /**
   * Asks PayPal whether a webhook delivery is genuine (POST /v1/notifications/verify-webhook-
   * signature) from its `paypal-*` headers and the event. Pass the body exactly as received as
   * `rawEvent` when there is one: PayPal checks the signature over those bytes, and JSON parsed
   * and written again may differ (a `1.0` becomes `1`). False when PayPal says FAILURE or refuses
   * the inputs, a header is missing or no webhook id is configured; throws when PayPal could not
   * be asked (network, 5xx, our credentials), so the caller can answer "try again later".
   */
  verifyWebhook(headers: WebhookHeaders, event: unknown, rawEvent?: string): Promise<boolean>;
}

/** The five headers of a delivery, by the field names of the verify request. */
const WEBHOOK_HEADERS = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const;

/** 1234 -> "12.34" */
export function centsToValue(cents: number): string {
  if (!Number.isInteger(cents) || cents < 0) throw new Error(`Invalid amount in cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** "12.34" -> 1234; refuses anything that is not a plain decimal money value. */
export function valueToCents(value: string): number {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!m) throw new Error(`Invalid money value: ${value}`);
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

// What PayPal sends is stored and mailed: keep printable text of a sane length only.
const clean = (v: unknown, max = 300): string =>
  typeof v === 'string'
    ? v
        .toWellFormed()
        .replace(/[\u0000-\u001F\u007F]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, max)
    : '';

/**
 * The parts of PayPal's order JSON (Orders v2) this client reads. Everything is optional: it
 * comes from outside, and each reader says what it does when a part is missing.
 */
interface PayPalAddressJson {
  address_line_1?: string;
  address_line_2?: string;
  admin_area_1?: string;
  admin_area_2?: string;
  postal_code?: string;
  country_code?: string;
}
interface PayPalShippingJson {
  name?: { full_name?: string };
  address?: PayPalAddressJson;
}
interface PayPalAmountJson {
  value?: string;
  currency_code?: string;
}
interface PayPalOrderJson {
  id: string;
  status: string;
  payer?: { name?: { given_name?: string; surname?: string }; email_address?: string };
  purchase_units?: {
    reference_id?: string;
    amount?: PayPalAmountJson;
    shipping?: PayPalShippingJson;
    payments?: { captures?: { id: string; status: string; amount: Required<PayPalAmountJson> }[] };
  }[];
}

/** PayPal's purchase_units[].shipping -> ShipTo, or null without an address line. */
export function shipToOf(shipping: PayPalShippingJson | undefined): ShipTo | null {
  const a: PayPalAddressJson = shipping?.address ?? {};
  const street = [clean(a.address_line_1), clean(a.address_line_2)].filter(Boolean);
  if (street.length === 0) return null;
  const cityLine = [clean(a.admin_area_2), [clean(a.admin_area_1, 40), clean(a.postal_code, 40)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return {
    name: clean(shipping?.name?.full_name),
    address: [...street, cityLine, clean(a.country_code, 2)].filter(Boolean).join('\n'),
  };
}

/** The capture an order JSON carries (captures[0]), with the payer and the address; undefined without one. */
function capturedOf(order: PayPalOrderJson): CapturedOrder | undefined {
  const capture = order.purchase_units?.[0]?.payments?.captures?.[0];
  if (!capture) return undefined;
  const given = order.payer?.name?.given_name ?? '';
  const surname = order.payer?.name?.surname ?? '';
  return {
    orderId: order.id,
    status: order.status,
    captureId: capture.id,
    captureStatus: capture.status,
    amountCents: valueToCents(capture.amount.value),
    currency: capture.amount.currency_code,
    payer: { name: `${given} ${surname}`.trim(), firstName: given, email: order.payer?.email_address ?? '' },
    shipTo: shipToOf(order.purchase_units?.[0]?.shipping),
  };
}

/** The PayPal-Request-Id of an order's capture: stable, so every retry of it is the same request. */
export const captureRequestId = (orderId: string) => `capture-${orderId}`;

export function createPayPalClient(config: PayPalConfig, kind: 'paypal' | 'emulator' = 'paypal'): Payments {
  const timeoutMs = config.timeoutMs ?? 30_000;
  /**
   * Every call has a deadline: a PayPal that never answers must not hold a buyer's request (and
   * its database transaction) open. A call past it fails as a 504, which callers treat like any
   * PayPal outage; a capture is retried with the same PayPal-Request-Id, so it is never doubled.
   */
  const doFetch = async (url: string, init: RequestInit): Promise<Response> => {
    try {
      return await (config.fetch ?? fetch)(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      if (err instanceof Error && err.name === 'TimeoutError') throw new PayPalError(`PayPal did not answer within ${timeoutMs} ms`, 504);
      throw err;
    }
  };
  const base = config.baseUrl.replace(/\/$/, '');
  let token: { value: string; expiresAt: number } | undefined;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now() + 60_000) return token.value;
    const res = await doFetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (!res.ok) throw new PayPalError(`PayPal authentication failed (${res.status})`, res.status);
    const body = (await res.json()) as { access_token: string; expires_in: number };
    token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return token.value;
  }

  /** `body` is sent as JSON; a string is taken as JSON already written. */
  async function call<T>(method: string, path: string, body?: unknown, requestId?: string): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await accessToken()}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
    };
    // PayPal-Request-Id makes a retried create or capture idempotent on PayPal's side.
    if (requestId) headers['paypal-request-id'] = requestId;
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const res = await doFetch(`${base}${path}`, { method, headers, body: payload });
    const text = await res.text();
    const json = text ? JSON.parse(text) : {};
    if (!res.ok) {
      const issue = json?.details?.[0]?.issue as string | undefined;
      throw new PayPalError(`PayPal ${method} ${path} failed (${res.status}${issue ? ` ${issue}` : ''})`, res.status, issue);
    }
    return json as T;
  }

  return {
    kind,
    clientId: config.clientId,

    async createOrder({ amountCents, currency = 'USD', description, referenceId, shipping = 'none', breakdown }) {
      const money = (cents: number) => ({ currency_code: currency, value: centsToValue(cents) });
      const order = await call<{ id: string; status: string }>('POST', '/v2/checkout/orders', {
        intent: 'CAPTURE',
        purchase_units: [
          {
            ...(referenceId ? { reference_id: referenceId } : {}),
            ...(description ? { description: description.slice(0, 127) } : {}),
            amount: {
              currency_code: currency,
              value: centsToValue(amountCents),
              ...(breakdown
                ? {
                    breakdown: {
                      item_total: money(breakdown.itemsCents),
                      discount: money(breakdown.discountCents),
                      shipping: money(breakdown.shippingCents),
                      tax_total: money(breakdown.taxCents),
                    },
                  }
                : {}),
            },
          },
        ],
        payment_source: {
          paypal: { experience_context: { shipping_preference: shipping === 'collect' ? 'GET_FROM_FILE' : 'NO_SHIPPING' } },
        },
      });
      return { id: order.id, status: order.status };
    },

    async getOrder(orderId) {
      const order = await call<PayPalOrderJson>('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`);
      const unit = order.purchase_units?.[0];
      const amount = unit?.amount ?? {};
      return {
        id: order.id,
        status: order.status,
        amountCents: valueToCents(amount.value ?? '0'),
        currency: amount.currency_code ?? '',
        referenceId: unit?.reference_id,
        ...(regionOf(unit?.shipping) ? { shipToRegion: regionOf(unit?.shipping) } : {}),
        ...(order.status === 'COMPLETED' && capturedOf(order) ? { captured: capturedOf(order) } : {}),
      };
    },

    async captureOrder(orderId, requestId = captureRequestId(orderId)) {
      const order = await call<PayPalOrderJson>('POST', `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {}, requestId);
      const captured = capturedOf(order);
      if (!captured) throw new PayPalError('PayPal capture returned no capture', 502);
      return captured;
    },

    async refundCapture(captureId) {
      const refund = await call<{ id: string; status: string }>(
        'POST',
        `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
        {},
        `refund-${captureId}`,
      );
      return { id: refund.id, status: refund.status };
    },

    async verifyWebhook(headers, event, rawEvent) {
      if (!config.webhookId) return false;
      const fields: Record<string, string> = {};
      for (const [field, header] of Object.entries(WEBHOOK_HEADERS)) {
        const value = headers.get(header)?.trim();
        // PayPal would refuse the request anyway; a forged delivery costs no call.
        if (!value) return false;
        fields[field] = value;
      }
      const head = JSON.stringify({ ...fields, webhook_id: config.webhookId });
      const eventJson = rawEvent?.trim() || JSON.stringify(event);
      const body = `${head.slice(0, -1)},"webhook_event":${eventJson}}`;
      try {
        const answer = await call<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', body);
        return answer.verification_status === 'SUCCESS';
      } catch (err) {
        // PayPal refusing the inputs (a malformed header, an unknown webhook) is a verdict, not an outage.
        if (err instanceof PayPalError && (err.status === 400 || err.status === 404 || err.status === 422)) return false;
        throw err;
      }
    },
  };
}
