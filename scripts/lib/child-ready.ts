/**
 * The benchmarks' servers in processes of their own say they are ready by printing one JSON line
 * on stdout (`{"url": …}`, with more fields for some). Waiting for that line was written three
 * times (bench-publish, bench-serve, bench-speed); it is this.
 */
import type { ChildProcess } from 'node:child_process';

/** The first line `child` prints that starts with `prefix`, parsed; rejects when the child exits before printing it. */
export function readyLine<T = { url: string }>(child: ChildProcess, prefix = '{"url"', name = 'the child'): Promise<T> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith(prefix));
      if (!line) return;
      child.stdout!.off('data', onData);
      resolve(JSON.parse(line) as T);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
  });
}
