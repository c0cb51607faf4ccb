// Small process helpers for the cluster harness: free ports, waiting for a URL, a child process
// whose output is kept (in memory and in a file) and whose exit can be awaited.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on right now, asked of the OS. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Polls `check` until it answers true, failing with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  for (;;) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}` +
          (last instanceof Error ? ` (last error: ${last.message})` : ''),
      );
    await sleep(intervalMs);
  }
}

/** True when `url` answers 200 within 2 s. */
export async function answers200(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A child process with its output kept: in memory (for assertions) and in `logFile`. */
export class Child {
  readonly process: ChildProcess;
  readonly exited: Promise<ExitInfo>;
  private chunks: string[] = [];
  private file: WriteStream;
  private exitInfo: ExitInfo | null = null;

  constructor(command: string, args: string[], options: SpawnOptions & { logFile: string }) {
    const { logFile, ...spawnOptions } = options;
    this.file = createWriteStream(logFile, { flags: 'a' });
    this.process = spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.chunks.push(text);
      this.file.write(text);
    };
    this.process.stdout?.on('data', keep);
    this.process.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => {
      this.process.on('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
      this.process.on('error', (err) => {
        keep(Buffer.from(`spawn failed: ${err.message}\n`));
        this.exitInfo = { code: -1, signal: null };
        resolve(this.exitInfo);
      });
    });
    void this.exited.then(() => this.file.end());
  }

  get running(): boolean {
    return this.exitInfo === null;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  output(): string {
    return this.chunks.join('');
  }

  /** Sends `signal` and waits for the exit (SIGKILL after `graceMs` if it has not gone). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 35_000): Promise<ExitInfo> {
    if (!this.running) return this.exitInfo!;
    this.process.kill(signal);
    const timer = setTimeout(() => this.process.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
