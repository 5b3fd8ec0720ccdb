// Signed-in /ws clients for the benchmarks, connected 100 at a time; `setUp` attaches each one's listeners. Each
// open socket goes into `sockets` at once, so a caller can close those already open if a later one fails.
import WebSocket from 'ws';

export async function connectClients(apiUrl, cookie, count, setUp = () => undefined, sockets = []) {
  for (let i = 0; i < count; i += 100) {
    await Promise.all(
      Array.from(
        { length: Math.min(100, count - i) },
        () =>
          new Promise((resolve, reject) => {
            const socket = new WebSocket(`${apiUrl.replace('http', 'ws')}/ws`, { headers: { cookie } });
            setUp(socket);
            socket.once('open', () => resolve(sockets.push(socket)));
            socket.once('error', reject);
          }),
      ),
    );
  }
  return sockets;
}
