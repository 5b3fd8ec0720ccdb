import http from 'node:http';
import net from 'node:net';

export interface ReverseProxy {
  url: string;
  /** Each /ws upgrade: the replica it went to, when it opened and, once it did, when the replica's side closed. */
  upgrades: { target: string; openedAt: number; closedAt?: number }[];
  close(): Promise<void>;
}

/**
 * A small gateway in front of API replicas, as the compose nginx is: requests and /ws upgrades go round-robin to
 * the replicas, and one that refuses the connection (killed) is skipped for the next (nginx's proxy_next_upstream
 * error). The Host header passes unchanged, so the replicas see the site's own origin.
 */
export async function startReverseProxy(port: number, targets: string[]): Promise<ReverseProxy> {
  let next = 0;
  const upgrades: ReverseProxy['upgrades'] = [];
  const hostsOf = (target: string) => ({ host: new URL(target).hostname, port: Number(new URL(target).port) });
  const order = () => {
    const start = next++ % targets.length;
    return targets.map((_, index) => targets[(start + index) % targets.length]!);
  };

  const server = http.createServer(async (req, res) => {
    // bodies are small here: read whole, so the request can go to the next replica when one refuses
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const attempt = (candidates: string[]) => {
      const [target, ...rest] = candidates;
      if (!target) {
        res.writeHead(502).end('no replica answered');
        return;
      }
      const upstream = http.request({ ...hostsOf(target), method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED' && !res.headersSent) attempt(rest);
        else res.destroy();
      });
      upstream.end(body);
    };
    attempt(order());
  });

  server.on('upgrade', (req, client: net.Socket, head: Buffer) => {
    const attempt = (candidates: string[]) => {
      const [target, ...rest] = candidates;
      if (!target) return client.destroy();
      const upstream = net.connect(hostsOf(target));
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        const record: ReverseProxy['upgrades'][number] = { target, openedAt: Date.now() };
        upgrades.push(record);
        const headers = Object.entries(req.headers).flatMap(([name, value]) =>
          (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`),
        );
        upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
        if (head.length) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
        upstream.once('close', () => {
          record.closedAt = Date.now();
          client.destroy();
        });
      });
      upstream.on('error', () => {
        if (!connected) attempt(rest);
        else client.destroy();
      });
      client.on('error', () => upstream.destroy());
      client.once('close', () => upstream.destroy());
    };
    attempt(order());
  });

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    upgrades,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
