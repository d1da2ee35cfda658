/**
 * The sales-tax rate service (issue 29, decision 0028): the rate, location code and jurisdiction
 * of an address, from the state's own free service. One interface, two implementations:
 * Washington Department of Revenue's lookup (the real one, always in production) and a local
 * stand-in that knows a few Washington ZIP codes and needs no network (development, tests).
 * The cache, the timeout's consequence and the fallback to her imported table are the shop's
 * (api/shop/tax-lookup.ts); a client only asks once and says what it heard.
 */
import { PPM } from '../../contract/tax.ts';

/** Washington Department of Revenue's address rate lookup, asked in production. */
export const WA_DOR_RATES_URL = 'https://webgis.dor.wa.gov/webapi/AddressRates.aspx';

/** The rate at an address as the service states it. */
export interface ServiceRate {
  /** Combined (state + local) rate in parts per million: 10.35% = 103 500. */
  ratePpm: number;
  /** The state's location code of the place (Washington's four digits). */
  locationCode: string;
  /** The jurisdiction's name, as the service spells it (SEATTLE). */
  jurisdiction: string;
}

export interface TaxRateService {
  readonly kind: 'wa-dor' | 'stand-in';
  /** The states it answers for. */
  readonly states: readonly string[];
  /**
   * The rate at `zip` (5 digits or ZIP+4) in `state`: null when the service does not know the
   * address; throws when it can't be asked (down, timed out, an answer that can't be read).
   */
  rateAt(state: string, zip: string): Promise<ServiceRate | null>;
}

export class TaxServiceError extends Error {}

/** A rate as the service writes it (0.1035) → ppm; null when it is not one (-1, empty). */
export function fractionToPpm(text: string | undefined): number | null {
  if (!text || !/^(?:0|0?\.\d{1,8}|1(?:\.0+)?)$/.test(text.trim())) return null;
  const ppm = Math.round(Number(text) * PPM);
  return ppm >= 0 && ppm <= 200_000 ? ppm : null;
}

const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`, 'i').exec(tag)?.[1];

/**
 * Reads the service's XML answer:
 *   <response loccode="1726" localrate="0.0385" rate="0.1035" code="0">
 *     <addressline … /><rate name="SEATTLE" code="1726" staterate="0.065" localrate="0.0385"/>
 *   </response>
 * Codes 0–2 (and the newer 3–5: an address updated or corrected, or the 5-digit ZIP found) carry
 * a rate; an unknown address answers rate="-1" and loccode="-1": null.
 */
export function parseWaDorAnswer(xml: string): ServiceRate | null {
  const response = /<response\b[^>]*>/i.exec(xml)?.[0];
  if (!response) throw new TaxServiceError('the answer has no <response>');
  const ratePpm = fractionToPpm(attr(response, 'rate'));
  const locationCode = attr(response, 'loccode')?.trim() ?? '';
  if (ratePpm === null || !/^\d{1,6}$/.test(locationCode)) return null;
  // The <rate> child names the place; the response's own attributes are the figures that count.
  const rateTag = /<rate\b[^>]*>/i.exec(xml.slice(xml.indexOf(response) + response.length))?.[0];
  const jurisdiction = (rateTag && attr(rateTag, 'name')?.trim()) || `Location ${locationCode}`;
  return { ratePpm, locationCode, jurisdiction: jurisdiction.slice(0, 100) };
}

/**
 * Washington Department of Revenue's address rate lookup (free, no key):
 * GET {baseUrl}?output=xml&addr=&city=&zip=98101[-1234]. Aborted after `timeoutMs`.
 */
export function createWaDorRates(options: { baseUrl: string; timeoutMs: number; fetch?: typeof fetch }): TaxRateService {
  const doFetch = options.fetch ?? fetch;
  return {
    kind: 'wa-dor',
    states: ['WA'],
    async rateAt(state, zip) {
      if (state !== 'WA') return null;
      const url = new URL(options.baseUrl);
      url.searchParams.set('output', 'xml');
      url.searchParams.set('addr', '');
      url.searchParams.set('city', '');
      url.searchParams.set('zip', zip);
      let res: Response;
      try {
        res = await doFetch(url, { signal: AbortSignal.timeout(options.timeoutMs), headers: { accept: 'application/xml, text/xml' } });
      } catch (err) {
        throw new TaxServiceError(err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : 'unreachable');
      }
      if (!res.ok) throw new TaxServiceError(`HTTP ${res.status}`);
      let text: string;
      try {
        text = await res.text();
      } catch {
        throw new TaxServiceError(`the answer did not arrive within ${options.timeoutMs} ms`);
      }
      return parseWaDorAnswer(text.slice(0, 64_000));
    },
  };
}

/**
 * The stand-in's Washington: three places with their own combined rates and location codes
 * (Washington DOR's figures for 2026), answered offline. Any other ZIP is unknown, like an
 * address the real service can't find.
 */
export const STAND_IN_RATES: Readonly<Record<string, ServiceRate>> = {
  '98101': { ratePpm: 103_500, locationCode: '1726', jurisdiction: 'SEATTLE' },
  '99201': { ratePpm: 90_000, locationCode: '3210', jurisdiction: 'SPOKANE' },
  '98501': { ratePpm: 98_000, locationCode: '3406', jurisdiction: 'OLYMPIA' },
};

export function createTaxRateStandIn(): TaxRateService {
  return {
    kind: 'stand-in',
    states: ['WA'],
    async rateAt(state, zip) {
      if (state !== 'WA') return null;
      return STAND_IN_RATES[zip.slice(0, 5)] ?? null;
    },
  };
}
