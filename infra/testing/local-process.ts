import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export interface RunningStack {
  child: ChildProcess;
  url: string;
  /** The owner setup code the console showed (a data folder without an owner), as the operator reads it there. */
  setupCode?: string;
  /** The setup page's address, shown with it. */
  setupUrl?: string;
  /** Ctrl-C, as a person stops it; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash or the OOM killer ends it: no handler runs; resolves with the signal it died of. */
  kill(): Promise<NodeJS.Signals | null>;
  /** Everything it printed so far, to show with a failed assertion. */
  output(): string;
}

/**
 * `npm start` as a user runs it: a child process on a free port that prints its URL when ready.
 * `args` are start.ts's own (`['--dev']` is `npm run dev`).
 */
export function startStackProcess(dataDir: string, env: Record<string, string> = {}, args: readonly string[] = []): Promise<RunningStack> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts', ...args], {
    cwd: root,
    // A dev server of its own pre-bundles into its own folder: two dev servers sharing
    // node_modules/.vite rebuild it under each other's open pages (a second React, a dead screen).
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, ...(args.includes('--dev') ? { VITE_CACHE_DIR: path.join(dataDir, 'vite-cache') } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGINT');
    });
  const kill = () =>
    new Promise<NodeJS.Signals | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.signalCode);
      child.once('exit', (_code, signal) => resolve(signal));
      child.kill('SIGKILL');
    });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready at (http:\/\/localhost:\d+)/.exec(output);
      // Printed before the ready line (infra/local/start.ts), so it is in by now.
      const setup = /set up the owner account at (\S+) with the setup code (\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]!, ...(setup ? { setupUrl: setup[1]!, setupCode: setup[2]! } : {}), stop, kill, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`The stack exited with ${code} before it was ready:\n${output}`)));
  });
}
