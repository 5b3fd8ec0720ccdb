import { z } from 'zod';

/** Every /ws frame is JSON {type, data}. */
export const WS_PATH = '/ws';

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping'), data: z.unknown().optional() }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export type ServerMessage = { type: 'pong' };
