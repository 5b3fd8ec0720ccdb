import { SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import { WS_PATH, type ServerMessage } from '@cbh/contracts';

@WebSocketGateway({ path: WS_PATH })
export class RealtimeGateway {
  @SubscribeMessage('ping')
  ping(): ServerMessage {
    return { type: 'pong' };
  }
}
