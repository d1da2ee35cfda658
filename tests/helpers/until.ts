/** Polls `what` every 25 ms until it gives something truthy, and answers that; fails ("timed out") after `ms`. */
export async function until<T>(what: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}
