/**
 * Child processes for the crash tests: started with Node (the pinned one), ready when they
 * print a JSON line with `url`, killed by their own pid.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface Child {
  url: string;
  process: ChildProcess;
  /** What it printed, for a failing test's message. */
  output(): string;
  /** SIGKILL (a crash) or SIGTERM (a clean stop); resolves once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');

export function startChild(script: string, env: Record<string, string>, timeoutMs = 30_000): Promise<Child> {
  const child = spawn(process.execPath, [path.join(root, script)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${out}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"url"'));
      if (line) {
        clearTimeout(timer);
        resolve({
          url: (JSON.parse(line) as { url: string }).url,
          process: child,
          output: () => out,
          kill: async (signal = 'SIGKILL') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            await exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before it was ready:\n${out}`));
    });
  });
}

/**
 * `npm start`'s script run to its end with only PATH and HOME of this environment (none of the
 * developer's variables leak in) and `env` on top: what a start that must refuse prints and answers.
 */
export function runStartScript(env: Record<string, string>) {
  return spawnSync(process.execPath, ['scripts/start.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}
