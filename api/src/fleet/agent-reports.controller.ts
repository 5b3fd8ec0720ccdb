import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { AgentReportReply } from '@cbh/contracts';
import { ServiceAgent } from '../auth/access.decorator';
import type { AppRequest } from '../auth/session-user';
import { AgentIngest } from './agent-ingest.service';

/** Where the agents of services report their breakers (AGENT_REPORTS_PATH), and hear back what the hub wants. */
@Controller('agent')
export class AgentReportsController {
  constructor(private readonly ingest: AgentIngest) {}

  @Post('reports')
  @ServiceAgent()
  @HttpCode(200)
  report(@Req() req: AppRequest, @Body() body: unknown): Promise<AgentReportReply> {
    return this.ingest.ingest(req.user!, body);
  }
}
