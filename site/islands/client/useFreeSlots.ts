import { useCallback, useEffect, useRef, useState } from 'react';
import { request } from '../../lib/http';
import { publicConfig } from '../../lib/config';
import type { ClientSlotsView, SlotView } from '../../../contract/slots.ts';
import { MAX_PAGE_SIZE } from '../../../contract/paging.ts';

/**
 * The free slots a client can book, kept live (SPEC.md section 4): those of `range` (the query's
 * `&from=…&to=…`, her dates) from now on; a slot booked by someone else vanishes at once (PartyKit
 * room "slots", best effort) and `onTaken` hears of it; a slot freed by a cancel or a move makes
 * the list read again. The booking page and the guided first booking (issue 30) both read it, and
 * the teacher's client page (issue 32, `as` 'admin': her free slots ahead, the soonest
 * MAX_PAGE_SIZE of them, issue 36).
 */
export function useFreeSlots(userId: string, range: string, onTaken: (slotId: string) => void, as: 'user' | 'admin' = 'user') {
  const [slots, setSlots] = useState<SlotView[] | null>(null);
  // Refs: the realtime handler is set up once and must see the range on screen and the latest handler.
  const rangeRef = useRef(range);
  const takenRef = useRef(onTaken);
  useEffect(() => {
    takenRef.current = onTaken;
  }, [onTaken]);

  /** The free slots from now on of the range on screen; the list, or null when the call failed. */
  const load = useCallback(async (): Promise<SlotView[] | null> => {
    const asked = rangeRef.current;
    // The teacher's: her free slots ahead, soonest first, as many as a page holds (issue 36).
    const res =
      as === 'admin'
        ? await request<SlotView[]>('GET', `/api/bookings?list=availableSlots&limit=${MAX_PAGE_SIZE}`, { session: 'admin' })
        : await request<ClientSlotsView>('GET', `/api/bookings?userId=${encodeURIComponent(userId)}${asked}`, { session: 'user' });
    const free = !res.ok ? null : Array.isArray(res.data) ? res.data : res.data.availableSlots;
    const list = free ? free.filter((s) => new Date(s.startsAt).getTime() > Date.now()) : null;
    // An answer for a range no longer on screen is not shown.
    if (asked === rangeRef.current) setSlots(list ?? []);
    return list;
  }, [userId, as]);

  useEffect(() => {
    rangeRef.current = range;
    void load();
  }, [range, load]);

  useEffect(() => {
    let socket: { close(): void } | undefined;
    let cancelled = false;
    void Promise.all([publicConfig(), import('partysocket')]).then(([config, { default: PartySocket }]) => {
      if (cancelled) return;
      const ws = new PartySocket({ host: config.realtimeHost, room: 'slots' });
      ws.addEventListener('message', (e: MessageEvent) => {
        try {
          const msg = JSON.parse(String(e.data));
          if (msg.type === 'slotBooked' && typeof msg.slotId === 'string') {
            setSlots((list) => list?.filter((s) => s._id !== msg.slotId) ?? list);
            takenRef.current(msg.slotId);
          }
          if (msg.type === 'slotFreed' && typeof msg.slotId === 'string') void load();
        } catch {
          // not ours
        }
      });
      socket = ws;
    });
    return () => {
      cancelled = true;
      socket?.close();
    };
  }, [load]);

  return { slots, load };
}
