import { BadRequestException, ConflictException, ForbiddenException, Injectable } from '@nestjs/common';
import {
  AGENT_PROTOCOL_LIMITS,
  AGENT_PROTOCOL_VERSION,
  AGENT_REPORT_EVERY_MS,
  agentReportSchema,
  hubTypeOf,
  serviceAccountNameOf,
  unsupportedVersionMessage,
  type AgentBreakerReport,
  type AgentReport,
  type AgentReportReply,
} from '@cbh/contracts';
import { ZodPipe } from '../common/validation/zod.pipe';
import type { SessionUser } from '../auth/session-user';
import { BreakersService } from '../breakers/breakers.service';
import type { BreakerConfigEntity } from '../breakers/entities/breaker-config.entity';
import { controlOf, FleetCatalog } from './fleet-catalog.service';
import { FleetRepository } from './fleet.repository';
import { FleetFigures } from './fleet-figures.service';
import { toStoredPeriod } from './instance-periods';

const reportPipe = new ZodPipe(agentReportSchema, 'report');

/** Settings compared whatever order their keys came in. */
const sameSettings = (a: Record<string, unknown> | null, b: Record<string, unknown>) =>
  a !== null && JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

function changedFrom(config: BreakerConfigEntity | undefined, breaker: AgentBreakerReport): boolean {
  return (
    !config ||
    config.library !== breaker.library ||
    config.libraryType !== breaker.type ||
    !sameSettings(config.reportedSettings, breaker.settings)
  );
}

/**
 * Takes an agent's report: its breakers' configurations made or brought up to date (a breaker seen for the first
 * time is announced like one an operator created), each instance's state and period written for every replica's
 * figures, the moves journalled with their instance; the reply carries what the hub wants of each breaker.
 */
@Injectable()
export class AgentIngest {
  constructor(
    private readonly catalog: FleetCatalog,
    private readonly repository: FleetRepository,
    private readonly breakers: BreakersService,
    private readonly figures: FleetFigures,
  ) {}

  /** The report's body, read: a version the hub does not speak is refused before anything else is. */
  read(body: unknown): AgentReport {
    const unsupported = unsupportedVersionMessage(body);
    if (unsupported) throw new BadRequestException(unsupported);
    return reportPipe.transform(body);
  }

  /**
   * A service may not grow the hub without bound: a new instance past AGENT_PROTOCOL_LIMITS.instancesPerService, or
   * new breakers past breakersPerService, are refused (409) — checked against this replica's copies, so replicas
   * taking reports at the same moment may pass a limit by what they let through together, never by more.
   */
  private withinLimits(service: string, report: AgentReport) {
    const known = this.figures.instancesOf(service);
    if (!known.has(report.instance) && known.size >= AGENT_PROTOCOL_LIMITS.instancesPerService) {
      throw new ConflictException(
        `Service ${service} has ${known.size} instances reporting, the most one service may; instance ${report.instance} is not taken`,
      );
    }
    const added = report.breakers.filter((breaker) => !this.catalog.find('agent', service, breaker.name)).length;
    const count = this.catalog.countOf('agent', service);
    if (added > 0 && count + added > AGENT_PROTOCOL_LIMITS.breakersPerService) {
      throw new ConflictException(
        `Service ${service} has ${count} breakers on the hub and this report adds ${added}: at most ${AGENT_PROTOCOL_LIMITS.breakersPerService}; delete some on the hub`,
      );
    }
  }

  async ingest(account: SessionUser, body: unknown, now = Date.now()): Promise<AgentReportReply> {
    const report = this.read(body);
    const service = serviceAccountNameOf(account.email);
    if (report.service !== service) {
      throw new ForbiddenException(`This token reports for service ${service}; it cannot report for ${report.service}`);
    }
    await this.catalog.ready();
    this.withinLimits(service, report);
    const stale = report.breakers.filter((breaker) => changedFrom(this.catalog.find('agent', service, breaker.name), breaker));
    if (stale.length > 0) {
      const ensured = await this.repository.ensureBreakers(
        'agent',
        service,
        stale.map((breaker) => ({
          name: breaker.name,
          type: hubTypeOf(breaker.library, breaker.type),
          library: breaker.library,
          libraryType: breaker.type,
          settings: breaker.settings,
        })),
      );
      await Promise.all(ensured.map(({ config }) => this.breakers.announceChange(config)));
    }
    const reported = report.breakers.flatMap((breaker) => {
      const config = this.catalog.find('agent', service, breaker.name);
      return config ? [{ breaker, config }] : [];
    });
    await Promise.all([
      this.repository.writeInstances(
        reported.map(({ breaker, config }) => ({
          configId: config.id,
          instance: report.instance,
          state: breaker.state,
          override: breaker.override,
          reportedAt: now,
          periodMs: AGENT_REPORT_EVERY_MS,
          lastMoveAt: breaker.transitions.length > 0 ? Math.max(...breaker.transitions.map((move) => Date.parse(move.at))) : null,
          period: toStoredPeriod(breaker.window, now),
        })),
        now,
      ),
      this.repository.journal(
        reported.flatMap(({ breaker, config }) =>
          breaker.transitions.map((move) => ({ configId: config.id, ...move, serviceInstance: report.instance })),
        ),
      ),
    ]);
    return {
      version: AGENT_PROTOCOL_VERSION,
      reportEveryMs: AGENT_REPORT_EVERY_MS,
      controls: reported.flatMap(({ config }) => controlOf(config) ?? []),
    };
  }
}
