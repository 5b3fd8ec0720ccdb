// The bare node:http floor for bench:instructions: a server in a process of its own (run under callgrind there)
// answering every request with the JSON it is sent, as bench/nest-floor.mjs does with Nest on Fastify.
// Forked with an IPC channel: it takes { body, port } and answers 'up' once listening.
import { createServer } from 'node:http';

process.once('message', ({ body, port }) =>
  createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(body);
  }).listen(port, '127.0.0.1', () => process.send('up')),
);
