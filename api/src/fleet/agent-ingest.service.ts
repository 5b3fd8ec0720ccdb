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
/** Reported moves older than this are not journalled; a report covers at most this long (a day). */
const MOVES_KEPT_MS = 86_400_000;
/** The shortest period a report is taken to cover (agents report every AGENT_REPORT_EVERY_MS, at most every 250 ms). */
const MIN_PERIOD_MS = 250;

/** When the breaker last moved, of the moves the report carries, as the journal keeps them (ms), or null. */
function lastMove(breaker: AgentBreakerReport, now: number): number | null {
  const times = breaker.transitions.map((move) => Date.parse(move.at)).filter((time) => time > now - MOVES_KEPT_MS);
  return times.length > 0 ? Math.min(now, Math.max(...times)) : null;
}

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
   * A service may not grow the hub without bound: a new instance past AGENT_PROTOCOL_LIMITS.instancesPerService live
   * ones is refused (409); new breakers past breakersPerService are left out of the report, which is otherwise taken
   * (its known breakers stay on the wall and under control), and the reply says so. Checked against this replica's
   * copies, so replicas taking reports at the same moment may pass a limit by what they let through together.
   */
  private withinLimits(service: string, report: AgentReport): { taken: AgentBreakerReport[]; notices: string[] } {
    const live = this.figures.instancesOf(service);
    if (!live.has(report.instance) && live.size >= AGENT_PROTOCOL_LIMITS.instancesPerService) {
      throw new ConflictException(
        `Service ${service} has ${live.size} instances reporting, the most one service may; instance ${report.instance} is not taken`,
      );
    }
    let room = AGENT_PROTOCOL_LIMITS.breakersPerService - this.catalog.countOf('agent', service);
    const left: string[] = [];
    const taken = report.breakers.filter((breaker) => {
      if (this.catalog.find('agent', service, breaker.name)) return true;
      if (room > 0) {
        room--;
        return true;
      }
      left.push(breaker.name);
      return false;
    });
    const notices =
      left.length === 0
        ? []
        : [
            `service ${service} has ${AGENT_PROTOCOL_LIMITS.breakersPerService} breakers on the hub, the most one service may: ${left.length} new breakers left out (${left.slice(0, 5).join(', ')}${left.length > 5 ? ', …' : ''}); delete some on the hub`,
          ];
    return { taken, notices };
  }

  /**
   * A reported move's time as the journal keeps it: one from the future (a clock ahead) is taken as now, and one more
   * than a day old is not journalled (it would sort among the old rows and raise no event worth sending).
   */
  private static moveTime(at: string, now: number): string | null {
    const time = Date.parse(at);
    if (!(time > now - MOVES_KEPT_MS)) return null;
    return new Date(Math.min(time, now)).toISOString();
  }

  async ingest(account: SessionUser, body: unknown, now = Date.now()): Promise<AgentReportReply> {
    const report = this.read(body);
    const service = serviceAccountNameOf(account.email);
    if (report.service !== service) {
      throw new ForbiddenException(`This token reports for service ${service}; it cannot report for ${report.service}`);
    }
    await this.catalog.ready();
    const { taken, notices } = this.withinLimits(service, report);
    const stale = taken.filter((breaker) => changedFrom(this.catalog.find('agent', service, breaker.name), breaker));
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
      // a new breaker, or one whose library or settings changed, is announced; one another replica made meanwhile is kept
      await Promise.all(
        ensured.map(({ config, created }) => {
          const known = this.catalog.find('agent', service, config.name);
          if (created || !known || known.updatedAt.getTime() !== config.updatedAt.getTime()) return this.breakers.announceChange(config);
          this.catalog.keep(config);
          return undefined;
        }),
      );
    }
    const periodMs = Math.min(MOVES_KEPT_MS, Math.max(MIN_PERIOD_MS, report.periodMs ?? AGENT_REPORT_EVERY_MS));
    const reported = taken.flatMap((breaker) => {
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
          lastMoveAt: lastMove(breaker, now),
          period: toStoredPeriod(breaker.window, now, periodMs),
        })),
        now,
      ),
      this.repository.journal(
        reported.flatMap(({ breaker, config }) =>
          breaker.transitions.flatMap((move) => {
            const at = AgentIngest.moveTime(move.at, now);
            return at === null ? [] : [{ configId: config.id, ...move, at, serviceInstance: report.instance }];
          }),
        ),
      ),
    ]);
    return {
      version: AGENT_PROTOCOL_VERSION,
      reportEveryMs: AGENT_REPORT_EVERY_MS,
      controls: reported.flatMap(({ breaker, config }) => controlOf(config, breaker.name) ?? []),
      ...(notices.length > 0 ? { notices } : {}),
    };
  }
}
