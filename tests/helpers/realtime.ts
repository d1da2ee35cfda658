import type { Realtime } from '../../api/services/realtime.ts';

/**
 * A stand-in for the realtime room, which is not running in tests: every notice succeeds, and the
 * id of each slot said to be booked is pushed onto `booked` when one is given, so a test can read
 * what the API told the room.
 */
export function recordingRealtime(booked?: string[]): Realtime {
  return {
    kind: 'partykit-dev',
    host: 'test',
    notifySlotFreed: async () => true,
    notifySlotBooked: async (slotId) => {
      booked?.push(slotId);
      return true;
    },
  };
}
