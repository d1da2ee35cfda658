/**
 * A job that runs every `intervalMs` in each server process (reminders): never two ticks of it
 * at once in one process (a slow tick makes the next one wait its turn, not pile up); a failing
 * tick is logged and the next one tries again. Across processes, the job's own claim (a
 * conditional UPDATE) makes each piece of work happen once.
 */
export function runEvery(name: string, intervalMs: number, task: () => Promise<unknown>): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await task();
    } catch (err) {
      console.error(`[${name}] check failed:`, err instanceof Error ? err.message : err);
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
