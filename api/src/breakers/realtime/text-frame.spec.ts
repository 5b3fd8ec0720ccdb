import type { Writable } from 'node:stream';
import WebSocket from 'ws';
import { textFrame } from './text-frame';

/** ws's own frame parser, the one its clients read with (its type declarations leave it out). */
const { Receiver } = WebSocket as unknown as { Receiver: new (options: { isServer: boolean }) => Writable };

describe('a ready text frame', () => {
  it.each([0, 5, 125, 126, 300, 65_535, 65_536, 70_000])(
    'of %i bytes reads back as the message in ws’s own client parser',
    async (size) => {
      const text = 'é'.repeat(Math.floor(size / 2)) + 'x'.repeat(size % 2);
      const receiver = new Receiver({ isServer: false });
      const received = new Promise<string>((resolve) => receiver.on('message', (data: Buffer) => resolve(data.toString())));
      receiver.write(textFrame(Buffer.from(text)));
      expect(await received).toBe(text);
    },
  );
});
