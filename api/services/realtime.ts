/**
 * Telling the PartyKit room that something happened. The room broadcasts it to every open
 * booking page. Best effort: a booking never fails because the room is down.
 */
export const SLOTS_ROOM = 'slots';

export interface Realtime {
  readonly kind: 'partykit' | 'partykit-dev';
  /** Where browsers connect (host[:port]); the booking island reads it from /api/config. */
  readonly host: string;
  notifySlotBooked(slotId: string): Promise<boolean>;
  /** A booked slot is free again (its client cancelled or moved the session): `{type: "slotFreed", slotId}`. */
  notifySlotFreed(slotId: string): Promise<boolean>;
}

export function createRealtime(options: { host: string; secret: string; dev: boolean; fetch?: typeof fetch }): Realtime {
  const doFetch = options.fetch ?? fetch;
  const protocol = options.dev || /^(localhost|127\.0\.0\.1)(:|$)/.test(options.host) ? 'http' : 'https';
  async function notify(type: 'slotBooked' | 'slotFreed', slotId: string): Promise<boolean> {
    try {
      const res = await doFetch(`${protocol}://${options.host}/parties/main/${SLOTS_ROOM}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type, slotId }),
        signal: AbortSignal.timeout(3000),
      });
      return res.ok;
    } catch (err) {
      console.warn(`[realtime] could not notify the room: ${(err as Error).message}`);
      return false;
    }
  }
  return {
    kind: options.dev ? 'partykit-dev' : 'partykit',
    host: options.host,
    notifySlotBooked: (slotId) => notify('slotBooked', slotId),
    notifySlotFreed: (slotId) => notify('slotFreed', slotId),
  };
}
