/** Public run-time configuration the islands read (never a secret). */
import type { BookingAmounts } from './settings.ts';

/** GET /api/config/public */
export interface PublicConfigView {
  /** Null while the human-check stand-in is on: the islands then send `dev:<action>` tokens. */
  recaptchaSiteKey: string | null;
  googleSignIn: boolean;
  realtimeHost: string;
  /** The teacher's IANA time zone, e.g. America/Los_Angeles. */
  timezone: string;
  /** The booking page's amount ranges and sliding-scale sentence, as she set them (issue 20; contract/settings.ts). */
  booking: BookingAmounts;
  /**
   * Where and when a local-pickup order is collected, as the cart says it (issue 30): her shop's town and her hours ('' when she set none).
   * `handOverOnly` (issue 48): she sells under the cottage-food exemption, so the cart offers pickup alone (the server refuses shipping).
   */
  pickup: { city: string; hours: string; handOverOnly: boolean };
}

/** GET /api/config/paypal (SPEC.md section 7: {clientId}). */
export interface PayPalConfigView {
  clientId: string;
  currency: string;
  /** Set while the local PayPal emulator stands in (development and tests): where its SDK script is served. */
  sdkBaseUrl?: string;
  emulator?: boolean;
}
