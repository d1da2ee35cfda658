/**
 * What partykit imports as `miniflare` inside `partykit dev` (scripts/partykit-loopback.ts):
 * the real module, with every Miniflare pinned to loopback. Miniflare's `host` sets both the
 * room's socket and its own loopback server.
 */
import { Log, Miniflare as RealMiniflare, TypedEventTarget } from 'miniflare';

type Options = ConstructorParameters<typeof RealMiniflare>[0];

const loopback = (options: Options): Options => ({ ...options, host: '127.0.0.1' });

export { Log, TypedEventTarget };

export class Miniflare extends RealMiniflare {
  constructor(options: Options) {
    super(loopback(options));
  }

  setOptions(options: Options) {
    return super.setOptions(loopback(options));
  }
}
