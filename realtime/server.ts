import type * as Party from 'partykit/server';

/**
 * The one realtime room ("slots"). Browsers on the booking page connect and listen; the API
 * POSTs `{type: "slotBooked" | "slotFreed", slotId}` with the shared secret after a booking commits, and
 * the room broadcasts it. Browsers cannot broadcast: their messages are ignored.
 */
export default class SlotsRoom implements Party.Server {
  readonly room: Party.Room;
  constructor(room: Party.Room) {
    this.room = room;
  }

  async onRequest(req: Party.Request): Promise<Response> {
    if (req.method !== 'POST') return new Response('Method not allowed', { status: 405 });
    const secret = (this.room.env.PARTYKIT_SECRET as string | undefined) ?? '';
    if (!secret || req.headers.get('authorization') !== `Bearer ${secret}`) {
      return new Response('Unauthorized', { status: 401 });
    }
    let body: { type?: unknown; slotId?: unknown };
    try {
      body = await req.json();
    } catch {
      return new Response('Bad JSON', { status: 400 });
    }
    // slotFreed: a client cancelled or moved their session (issue 15); open pages show the slot again.
    if ((body.type !== 'slotBooked' && body.type !== 'slotFreed') || typeof body.slotId !== 'string' || body.slotId.length > 100) {
      return new Response('Unknown message', { status: 400 });
    }
    this.room.broadcast(JSON.stringify({ type: body.type, slotId: body.slotId }));
    return Response.json({ ok: true, listeners: [...this.room.getConnections()].length });
  }
}
