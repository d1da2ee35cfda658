import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { startPartykitDev, type PartykitDev } from '../../../scripts/partykit.ts';
import { createRealtime } from '../../../api/services/realtime.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

let room: PartykitDev;
const secret = 'test-room-secret';
beforeAll(async () => {
  room = await startPartykitDev({ port: await freePort(), secret, quiet: true });
}, 60_000);
afterAll(async () => {
  await room?.stop();
});

function listen(url: string) {
  const ws = new WebSocket(url);
  const messages: unknown[] = [];
  ws.addEventListener('message', (e) => messages.push(JSON.parse(String(e.data))));
  const open = new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve());
    ws.addEventListener('error', () => reject(new Error('WebSocket failed')));
  });
  return { ws, messages, open };
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('PartyKit room (partykit dev)', () => {
  it('broadcasts slotBooked to every connected client after the API notifies it', async () => {
    const a = listen(`ws://127.0.0.1:${room.port}/parties/main/slots`);
    const b = listen(`ws://127.0.0.1:${room.port}/parties/main/slots`);
    await Promise.all([a.open, b.open]);
    const realtime = createRealtime({ host: `127.0.0.1:${room.port}`, secret, dev: true });
    expect(await realtime.notifySlotBooked('slot-123')).toBe(true);
    await until(() => a.messages.length > 0 && b.messages.length > 0);
    expect(a.messages).toEqual([{ type: 'slotBooked', slotId: 'slot-123' }]);
    expect(b.messages).toEqual([{ type: 'slotBooked', slotId: 'slot-123' }]);
    a.ws.close();
    b.ws.close();
  });

  it('broadcasts slotFreed when a client cancels or moves a session (issue 15)', async () => {
    const a = listen(`ws://127.0.0.1:${room.port}/parties/main/slots`);
    await a.open;
    const realtime = createRealtime({ host: `127.0.0.1:${room.port}`, secret, dev: true });
    expect(await realtime.notifySlotFreed('slot-456')).toBe(true);
    await until(() => a.messages.length > 0);
    expect(a.messages).toEqual([{ type: 'slotFreed', slotId: 'slot-456' }]);
    a.ws.close();
  });

  it('refuses a notification without the shared secret, and broadcasts nothing', async () => {
    const a = listen(`ws://127.0.0.1:${room.port}/parties/main/slots`);
    await a.open;
    const forged = createRealtime({ host: `127.0.0.1:${room.port}`, secret: 'wrong', dev: true });
    expect(await forged.notifySlotBooked('slot-999')).toBe(false);
    const res = await fetch(`http://127.0.0.1:${room.port}/parties/main/slots`, { method: 'POST', body: '{"type":"slotBooked","slotId":"x"}' });
    expect(res.status).toBe(401);
    // A browser can't broadcast either: its messages are ignored.
    a.ws.send(JSON.stringify({ type: 'slotBooked', slotId: 'from-browser' }));
    await new Promise((r) => setTimeout(r, 300));
    expect(a.messages).toEqual([]);
    a.ws.close();
  });

  it('reports failure instead of throwing when the room is down', async () => {
    const down = createRealtime({ host: `127.0.0.1:${await freePort()}`, secret, dev: true });
    expect(await down.notifySlotBooked('slot-1')).toBe(false);
  });
});
