/**
 * Preloaded into `partykit dev` (`node --import`, see scripts/partykit.ts) so the realtime
 * stand-in listens on loopback only. partykit 0.0.115 has no host option (`partykit dev --help`
 * lists none) and hard-codes 0.0.0.0 for the room's socket; its inspector proxy (port 9229)
 * listens on every interface too. Anyone on the network could then post `slotBooked` to the
 * room or attach a debugger to it.
 *
 * Two narrow changes, only in that process: partykit's import of `miniflare` gets a Miniflare
 * whose `host` is always 127.0.0.1 (scripts/partykit-miniflare.ts), and a server that listens
 * without naming a host listens on 127.0.0.1.
 */
import { registerHooks } from 'node:module';
import net from 'node:net';

export const LOOPBACK = '127.0.0.1';

const shim = new URL('./partykit-miniflare.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'miniflare' && context.parentURL?.includes('/node_modules/partykit/')) return { url: shim, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
  const [first, second] = args;
  if (first === undefined || (typeof first === 'number' && typeof second !== 'string')) {
    // listen(), listen(port[, backlog][, callback]): every interface by default.
    args.splice(0, first === undefined ? 0 : 1, first ?? 0, LOOPBACK);
  } else if (typeof first === 'object' && first !== null && 'port' in first && !(first as { host?: string }).host) {
    args[0] = { ...first, host: LOOPBACK };
  }
  return listen.apply(this, args as Parameters<typeof listen>);
} as typeof listen;
