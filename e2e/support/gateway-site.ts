import { rmSync } from 'node:fs';
import { expect } from '@playwright/test';
import { startGateway, type Gateway } from '../../tools/testing/nginx-gateway';
import { freePort } from '../../tools/testing/free-port.mjs';
import { copyOfBuild, SESSION_SECRET, sharedDatabaseUrl, startSite, type Site } from './server';

export interface GatewaySite {
  /** The one origin users see: the gateway's. */
  url: string;
  gateway: Gateway;
  /** The API replicas behind it, in order; each may be stopped and started again on its port. */
  replicas: Site[];
  /** The copy of the build the static servers serve, which a test may redeploy into. */
  staticRoot: string;
  /** Waits until the gateway carries exactly one /ws (a page's) to a replica, and gives that replica's index. */
  wsCarrier(): Promise<number>;
  /** Starts replica `index` again on its port (after a stop), as a redeploy or a restarted container would. */
  restartReplica(index: number): Promise<Site>;
  stop(): Promise<void>;
}

/**
 * The production topology of docker-compose.yml without containers: Debian's nginx with deploy/nginx/gateway.conf
 * in front of API replicas of the production build on the suite's database, and deploy/nginx/static.conf serving a
 * copy of the built shell and remotes.
 */
export async function startGatewaySite({ replicas: count = 2 }: { replicas?: number } = {}): Promise<GatewaySite> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // as compose sets them: the site's origin, and the gateway (a loopback hop here) trusted for X-Forwarded-*
  const env = { DATABASE_URL: sharedDatabaseUrl(), SESSION_SECRET, PUBLIC_URL: url, TRUST_PROXY: 'loopback' };
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const replicas = await Promise.all(ports.map((replicaPort) => startSite({ port: replicaPort, env })));
  const staticRoot = copyOfBuild();
  const gateway = await startGateway({ apiUrls: replicas.map((replica) => replica.url), siteRoot: staticRoot, port });
  return {
    url,
    gateway,
    replicas,
    staticRoot,
    async wsCarrier() {
      // one look answers: a page's API request may open and close a connection between two looks, so the index is
      // taken from the same look that saw exactly one connection (the /ws) in all
      let carrier = -1;
      await expect
        .poll(() => {
          const carried = replicas.map((replica) => gateway.openConnectionsTo(replica.url));
          carrier = carried.reduce((sum, count) => sum + count, 0) === 1 ? carried.indexOf(1) : -1;
          return carrier;
        })
        .toBeGreaterThanOrEqual(0);
      return carrier;
    },
    async restartReplica(index) {
      replicas[index] = await startSite({ port: ports[index]!, env });
      return replicas[index]!;
    },
    async stop() {
      await gateway.stop();
      await Promise.all(replicas.map((replica) => replica.stop('SIGKILL')));
      rmSync(staticRoot, { recursive: true, force: true });
    },
  };
}
