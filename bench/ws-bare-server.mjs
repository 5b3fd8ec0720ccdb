// The floor for bench/ws-fanout.mjs, in a process of its own as the API is: a bare `ws` server that, for each
// POST /event, stamps a stateChange message with the time and writes it, framed once, to every client's
// connection. Nothing is checked or looked up: what is left is the system call per socket, which any server pays.
// Usage (by ws-fanout.mjs): node bench/ws-bare-server.mjs <port>; it sends 'ready' over IPC once listening.
import { createServer } from 'node:http';
import { Sender, WebSocketServer } from 'ws';

const server = createServer((request, response) => {
  const data = { configId: 1, from: 'CLOSED', to: 'OPEN', reason: 'Forced open by bench@example.com', at: new Date().toISOString() };
  const payload = Buffer.from(
    JSON.stringify({ type: 'stateChange', data: { ...data, instanceId: '0'.repeat(36), override: 'forced-open' } }),
  );
  const frame = Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }));
  for (const connection of connections) connection.write(frame);
  response.end();
});
const connections = new Set();
new WebSocketServer({ server }).on('connection', (socket, request) => {
  connections.add(request.socket);
  socket.on('close', () => connections.delete(request.socket));
});
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.send('ready'));
