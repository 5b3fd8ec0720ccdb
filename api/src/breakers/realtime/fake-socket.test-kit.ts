/**
 * A stand-in for an accepted /ws socket, for the gateway's specs: `sent` holds the text of every message the
 * gateway wrote, read back from the frames on its connection (the gateway writes ready frames there, see
 * RealtimeGateway.deliver); `upgrade` is the upgrade request the socket came with.
 */
export function fakeSocket(bufferedAmount = 0) {
  const sent: string[] = [];
  const connection = {
    write(bytes: Buffer) {
      sent.push(...textFramesIn(bytes));
      return true;
    },
  };
  return {
    OPEN: 1,
    readyState: 1,
    bufferedAmount,
    sent,
    terminated: false,
    closedWith: null as number | null,
    close(code: number) {
      this.closedWith = code;
    },
    terminate() {
      this.terminated = true;
    },
    upgrade(session: object) {
      return { session, socket: connection } as never;
    },
  };
}

/** The payloads of the unmasked text frames in bytes (RFC 6455 §5.2); anything else fails the spec. */
export function textFramesIn(bytes: Buffer): string[] {
  const texts: string[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (bytes[at] !== 0x81) throw new Error(`not a final text frame at byte ${at}`);
    let length = bytes[at + 1] ?? 0;
    let start = at + 2;
    if (length === 126) {
      length = bytes.readUInt16BE(at + 2);
      start = at + 4;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(at + 2));
      start = at + 10;
    }
    texts.push(bytes.subarray(start, start + length).toString());
    at = start + length;
  }
  return texts;
}
