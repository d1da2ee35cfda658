/**
 * The periodic runner (issue 21): the jobs every server process runs on a timer (reminders, the
 * payment reconciler, unfinalized bookings, the mail sender, the newsletter, scheduled posts) are
 * registered on one runner, which stops them all on shutdown and waits for the ticks under way.
 * A job never runs two ticks at once in one process (a slow tick makes the next one wait its turn,
 * not pile up); a failing tick is logged and the next one tries again. Across processes, each
 * job's own claim (a conditional UPDATE, SKIP LOCKED) makes each piece of work happen once.
 */
export interface Runner {
  /** Runs `task` every `intervalMs`; with `atStart`, also once right away (work a crash left). */
  every(name: string, intervalMs: number, task: () => Promise<unknown>, options?: { atStart?: boolean }): void;
  /**
   * Stops every job and waits for the ticks under way, at most `waitMs`: a tick stuck on a
   * database already gone is left behind rather than holding the shutdown.
   */
  stop(waitMs?: number): Promise<void>;
}

export function createRunner(): Runner {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  let stopped = false;
  return {
    every(name, intervalMs, task, options = {}) {
      let busy = false;
      const tick = () => {
        if (busy || stopped) return;
        busy = true;
        const done = task()
          .then(() => {})
          .catch((err: unknown) => console.error(`[${name}] tick failed:`, err instanceof Error ? err.message : err))
          .finally(() => {
            busy = false;
            running.delete(done);
          });
        running.add(done);
      };
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      timers.push(timer);
      if (options.atStart) tick();
    },
    async stop(waitMs = 2_000) {
      stopped = true;
      for (const t of timers) clearInterval(t);
      if (running.size === 0) return;
      await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
    },
  };
}

/** One job on a runner of its own (the publisher's poll, the backups' check); the answer stops it. */
export function runEvery(name: string, intervalMs: number, task: () => Promise<unknown>): () => void {
  const runner = createRunner();
  runner.every(name, intervalMs, task);
  return () => void runner.stop(0);
}
