import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { AgentReportReply } from '@cbh/contracts';
import { HubMetrics, ServiceAgent } from '../../platform';
import type { AppRequest } from '../../identity';
import { AgentIngest } from './agent-ingest.service';

/** Where the agents of services report their breakers (AGENT_REPORTS_PATH), and hear back what the hub wants. */
@Controller('agent')
export class AgentReportsController {
  constructor(
    private readonly ingest: AgentIngest,
    private readonly hubMetrics: HubMetrics,
  ) {}

  @Post('reports')
  @ServiceAgent()
  @HttpCode(200)
  async report(@Req() req: AppRequest, @Body() body: unknown): Promise<AgentReportReply> {
    try {
      const reply = await this.ingest.ingest(req.user!, body);
      this.hubMetrics.agentReports.inc({ outcome: 'accepted' });
      return reply;
    } catch (error) {
      this.hubMetrics.agentReports.inc({ outcome: 'refused' });
      throw error;
    }
  }
}
