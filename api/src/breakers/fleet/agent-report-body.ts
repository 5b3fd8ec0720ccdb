import type { FastifyInstance } from 'fastify';
import { AGENT_PROTOCOL_LIMITS, AGENT_REPORTS_PATH } from '@cbh/contracts';

/**
 * Lets POST /api/agent/reports read a report of up to AGENT_PROTOCOL_LIMITS.reportBytes: 500 breakers with full
 * histograms pass MAX_BODY_KB's default, which the other routes keep. Called before the application listens.
 */
export function acceptAgentReports(http: FastifyInstance) {
  http.addHook('onRoute', (route) => {
    if (route.url === AGENT_REPORTS_PATH) route.bodyLimit = AGENT_PROTOCOL_LIMITS.reportBytes;
  });
}
