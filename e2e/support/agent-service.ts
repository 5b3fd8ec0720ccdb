import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from '@playwright/test';
import { ROOT } from './server';

/** One running instance of examples/agent-service: real opossum breakers (payments, inventory) reported by @cbh/agent. */
export interface ExampleService {
  url: string;
  logs: string[];
  process: ChildProcess;
  call(breaker: string): Promise<{ status: number; state: string; injected?: boolean }>;
  fail(percent: number): Promise<void>;
  /** What its /health says: its faults and its connection's status. */
  health(): Promise<{
    faults: { allowed: boolean; active: string[] };
    breakers: { name: string; state: string; settings: Record<string, unknown> }[];
    hub: { reachable: boolean; delivered: number } | null;
  }>;
  stop(): Promise<void>;
}

/** Starts one instance of the example service reporting to `hub` as `service`; resolves once it listens. */
export async function startExampleService(
  instance: string,
  hub: string,
  token: string,
  service: string,
  env: Record<string, string> = {},
): Promise<ExampleService> {
  const logs: string[] = [];
  const child = spawn(process.execPath, [path.join(ROOT, 'examples/agent-service/server.mjs')], {
    cwd: ROOT,
    env: { ...process.env, CBH_HUB_URL: hub, CBH_AGENT_TOKEN: token, SERVICE_NAME: service, INSTANCE: instance, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk) => logs.push(String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      logs.push(String(chunk));
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(logs.join(''));
      if (listening) resolve(listening[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${instance} exited (${code}):\n${logs.join('')}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    logs,
    process: child,
    async call(breaker) {
      const response = await fetch(`${url}/call/${breaker}`);
      const body = (await response.json()) as { state: string; injected?: boolean };
      // `injected` only on a call a drill's fault failed
      return { status: response.status, state: body.state, ...(body.injected ? { injected: true } : {}) };
    },
    async fail(percent) {
      expect((await fetch(`${url}/fail?percent=${percent}`, { method: 'POST' })).status).toBe(200);
    },
    async health() {
      return (await fetch(`${url}/health`)).json();
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
