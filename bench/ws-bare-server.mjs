// The floor for bench/ws-fanout.mjs, in a process of its own as the API is: a bare `ws` server that, for each
// POST /event, stamps a stateChange message with the time and writes it with a configUpdated — the two messages an
// operator's force-open or reset sends each /ws client, of the same shape and size — framed once, in one write, to
// every client's connection. Nothing is checked or looked up: what is left is the system call per socket, and the
// client's reading of the same bytes, which any server pays.
// Usage (by ws-fanout.mjs): node bench/ws-bare-server.mjs <port>; it sends 'ready' over IPC once listening.
import { createServer } from 'node:http';
import { Sender, WebSocketServer } from 'ws';

const ID = '00000000-0000-4000-8000-000000000000';
let events = 0;
const server = createServer((request, response) => {
  const at = new Date().toISOString();
  const open = events++ % 2 === 0;
  const [from, to, action, override] = open ? ['CLOSED', 'OPEN', 'force-open', 'forced-open'] : ['OPEN', 'CLOSED', 'reset', 'none'];
  const reason = `${open ? 'forced open' : 'reset'} by Admin`;
  const stateChange = { type: 'stateChange', data: { configId: 1, from, to, reason, at, instanceId: ID, override, actorId: ID } };
  const config = {
    id: 1,
    name: 'Payment Gateway',
    type: 'simple',
    failureThreshold: 5,
    timeout: 30000,
    recoveryTime: 60000,
    successThreshold: 3,
    ...Object.fromEntries(['maxConcurrentCalls', 'maxQueue', 'minimumCalls', 'slowCallDuration'].map((key) => [key, null])),
    state: to,
    override,
    version: events,
    source: 'hub',
    ...Object.fromEntries(['service', 'library', 'libraryType', 'librarySettings'].map((key) => [key, null])),
    createdAt: at,
    updatedAt: at,
  };
  const configUpdated = { type: 'configUpdated', data: { configId: 1, config, manual: { action, reason } } };
  const frame = Buffer.concat(
    [stateChange, configUpdated].flatMap((message) =>
      Sender.frame(Buffer.from(JSON.stringify(message)), { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }),
    ),
  );
  for (const connection of connections) connection.write(frame);
  response.end();
});
const connections = new Set();
new WebSocketServer({ server }).on('connection', (socket, request) => {
  connections.add(request.socket);
  socket.on('close', () => connections.delete(request.socket));
});
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.send('ready'));
