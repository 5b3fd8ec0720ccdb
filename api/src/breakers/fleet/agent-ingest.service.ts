import {
  BadRequestException,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import {
  AGENT_PROTOCOL_LIMITS,
  AGENT_PROTOCOL_VERSION,
  AGENT_REPORT_ID_TTL_MS,
  AGENT_REPORT_RESEND_MS,
  hubTypeOf,
  serviceAccountNameOf,
  unsupportedVersionMessage,
  AGENT_REPORTS_PATH,
  type AgentBreakerControl,
  type AgentBreakerReport,
  type AgentBreakerSettings,
  type AgentFaultsStatus,
  type AgentReport,
  type AgentReportReply,
} from '@cbh/contracts';
import { APP_CONFIG, type AppConfig, GroupCommit, PeriodicWork, type Repeating, RetryLater } from '../../platform';
import { type SessionUser, TokenRateLimiter } from '../../identity';
import { BreakerFaults } from '../breaker-faults';
import { BreakersService } from '../breakers.service';
import type { BreakerConfigEntity } from '../entities/breaker-config.entity';
import { controlOf, FleetCatalog } from './fleet-catalog.service';
import { FleetRepository, type InstanceReport, type ReportedMove } from './fleet.repository';
import { type AdmissionAsk, AgentReportsRepository, type ReportToTake } from './agent-reports.repository';
import { toStoredPeriod } from './instance-periods';
import { readReport } from './report-reading';

/** Reported moves older than this are not journalled; a report covers at most this long (a day). */
const MOVES_KEPT_MS = 86_400_000;
/** The shortest period a report is taken to cover (agents report as often as the hub's AGENT_REPORT_EVERY_MS says, at most every 250 ms). */
const MIN_PERIOD_MS = 250;
/**
 * An instance admitted lately reports without asking the database again for this long (its last_seen is renewed
 * as often): the hour the instance limit counts over is kept to within a minute.
 */
const ADMITTED_FOR_MS = 60_000;
/**
 * How long the first report of a batch waits for others to be written with it while reports come steadily (ms): at
 * 200 instances reporting every second to two replicas a statement carries about 20 reports instead of 5 (API CPU per
 * report 1.9 → 1.6 ms in bench:fleet); a report reaches the wall that much later, well within its 1.5 s.
 */
const TAKE_WINDOW_MS = 200;
/** Instances remembered as admitted at most; emptied when full. */
const ADMITTED_KEPT = 100_000;

/**
 * The settings a stream's connection sent last, by breaker (see AGENT_STREAM_PATH): those of the breakers of its last
 * report taken, which a report on the same connection may leave out while they have not changed.
 */
export type SettingsSent = Map<string, AgentBreakerSettings>;

/** A reported breaker with its settings, sent or remembered. */
type SettledBreaker = AgentBreakerReport & { settings: AgentBreakerSettings };

/** A report read and judged (AgentIngest.prepare): what is to be written of it, and what its answer carries. */
interface Prepared {
  service: string;
  instance: string;
  /** The period the hub asks its agents for (ms). */
  everyMs: number;
  take: ReportToTake;
  notices: string[];
  controls: AgentBreakerControl[];
  /** The report's breakers on the hub, for the drills' faults. */
  targets: { id: number; name: string }[];
  faultsStatus: AgentFaultsStatus | undefined;
  /** Each breaker's settings, which the stream's next report may leave out; null where they are those sent already. */
  settings: [string, AgentBreakerSettings][] | null;
}

/**
 * The report's breakers with their settings: each its own, or, on a stream (`sent`), those the connection sent last.
 * A report POSTed carries every breaker's.
 */
function settled(breakers: AgentBreakerReport[], sent: SettingsSent | null): SettledBreaker[] {
  for (const breaker of breakers) {
    if (breaker.settings) continue;
    const settings = sent?.get(breaker.name);
    // the parsed report is this replica's own object: filled in place, not copied breaker by breaker
    if (settings) breaker.settings = settings;
    else
      throw new BadRequestException(
        sent
          ? `Breaker "${breaker.name}" has no settings, and none were sent for it in the last report taken on this connection`
          : `Breaker "${breaker.name}" has no settings: a report sent to ${AGENT_REPORTS_PATH} carries every breaker's`,
      );
  }
  return breakers as SettledBreaker[];
}

/**
 * Whether a stream's report names the breakers its last one taken named, each with the settings sent then (the same
 * objects, as `settled` fills them in): the steady case, in which the stream's memory stays as it is.
 */
function sameAsSent(breakers: readonly SettledBreaker[], sent: SettingsSent | null): boolean {
  if (!sent || sent.size !== breakers.length) return false;
  for (const breaker of breakers) if (sent.get(breaker.name) !== breaker.settings) return false;
  return true;
}

/** When the breaker last moved, of the moves the report carries, as the journal keeps them (ms), or null. */
function lastMove(breaker: AgentBreakerReport, now: number): number | null {
  let last = -Infinity;
  for (const move of breaker.transitions) {
    const time = Date.parse(move.at);
    if (time > now - MOVES_KEPT_MS && time > last) last = time;
  }
  return last === -Infinity ? null : Math.min(now, last);
}

/**
 * Settings compared whatever order their keys came in. Every report of every instance carries each breaker's settings,
 * almost always unchanged: plain values are compared key by key without building anything, and only a nested value
 * (rare in the libraries' settings) is compared through its JSON.
 */
function sameSettings(a: Record<string, unknown> | null, b: Record<string, unknown>): boolean {
  if (a === null) return false;
  let keys = 0;
  for (const key in b) {
    if (!Object.hasOwn(b, key)) continue;
    keys++;
    if (!Object.hasOwn(a, key)) return false;
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  for (const key in a) if (Object.hasOwn(a, key)) keys--;
  return keys === 0;
}

function changedFrom(config: BreakerConfigEntity | undefined, breaker: SettledBreaker): boolean {
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
export class AgentIngest implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AgentIngest.name);
  /** Instances this replica admitted lately: when (ms), and with how many breakers. */
  private readonly admitted = new Map<string, { at: number; breakers: number }>();
  private readonly perAccount: TokenRateLimiter;
  /** Instances asking to report while an admission is being judged go together in the next one (admitAll). */
  private readonly admissions = new GroupCommit((asks: AdmissionAsk[]) => this.reports.admitAll(asks), 200);
  /**
   * Reports taken within TAKE_WINDOW_MS of each other are written in one statement: a fleet's reports come steadily,
   * and a statement's round trip costs the replica more than a report's own work.
   */
  private readonly takes = new GroupCommit((items: ReportToTake[]) => this.reports.takeAll(items), 200, TAKE_WINDOW_MS);
  private pruning?: Repeating;

  constructor(
    private readonly work: PeriodicWork,
    private readonly catalog: FleetCatalog,
    private readonly repository: FleetRepository,
    private readonly reports: AgentReportsRepository,
    private readonly breakers: BreakersService,
    private readonly faults: BreakerFaults,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.perAccount = new TokenRateLimiter(reports, () => this.config.AGENT_REPORT_RATE_LIMIT);
  }

  onModuleInit() {
    this.pruning = this.work.every(
      60_000,
      () => this.reports.prune(Date.now() - AGENT_REPORT_ID_TTL_MS),
      (error) => this.logger.warn(`agent bounds not pruned: ${error.message}`),
    );
  }

  async onModuleDestroy() {
    this.perAccount.stop();
    await this.pruning?.stop();
  }

  /** The report's body, read: a version the hub does not speak is refused before anything else is. */
  read(body: unknown): AgentReport {
    const unsupported = unsupportedVersionMessage(body);
    if (unsupported) throw new BadRequestException(unsupported);
    return readReport(body);
  }

  /**
   * A service may not grow the hub without bound: its account's reports are counted per minute on every replica
   * together (AGENT_REPORT_RATE_LIMIT, all its tokens); a new instance past AGENT_PROTOCOL_LIMITS.instancesPerService
   * heard within the hour, or an instance whose breakers would take the service's rows past instanceRowsPerService
   * (new, or reporting more breakers than it had within the hour), is refused (429; rows of instances silent for 10
   * minutes are forgotten, and instances leave the hour's count an hour after they were last heard). A report that
   * adds no rows to an instance admitted lately asks the database nothing.
   */
  private async admit(service: string, report: AgentReport, now: number): Promise<void> {
    const key = `${service}\u0000${report.instance}`;
    const breakers = report.breakers.length;
    const lately = this.admitted.get(key);
    if (lately && now - lately.at < ADMITTED_FOR_MS && breakers <= lately.breakers) return;
    const { admitted, refused, instances, rows } = await this.admissions.add({ service, instance: report.instance, breakers });
    if (!admitted) {
      const L = AGENT_PROTOCOL_LIMITS;
      throw new RetryLater(
        refused === 'instances'
          ? `Service ${service} had ${instances} instances reporting within the hour, the most one service may (${L.instancesPerService}); instance ${report.instance} is not taken`
          : `Service ${service} has ${rows} instance rows (instances × breakers), and instance ${report.instance} would pass the most one service may (${L.instanceRowsPerService}); it is not taken`,
        60,
      );
    }
    if (this.admitted.size >= ADMITTED_KEPT) this.admitted.clear();
    this.admitted.set(key, { at: now, breakers: Math.max(breakers, lately?.breakers ?? 0) });
  }

  /**
   * The breakers of a report within the service's breakers on the hub, each with its configuration when the hub has
   * one, and what was left out.
   */
  private withinLimits(
    service: string,
    breakers: SettledBreaker[],
  ): { taken: { breaker: SettledBreaker; config: BreakerConfigEntity | undefined }[]; notices: string[] } {
    const known = this.catalog.ofService('agent', service);
    let room = AGENT_PROTOCOL_LIMITS.breakersPerService - known.size;
    const left: string[] = [];
    const taken: { breaker: SettledBreaker; config: BreakerConfigEntity | undefined }[] = [];
    for (const breaker of breakers) {
      const config = known.get(breaker.name.toLowerCase());
      if (config || room-- > 0) taken.push({ breaker, config });
      else left.push(breaker.name);
    }
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

  /**
   * Takes one report, POSTed or on a stream. `sent` is the stream's memory of the settings its connection sent (null
   * for a POST): read to fill the settings a report leaves out, and replaced by this report's once it is taken.
   */
  async ingest(account: SessionUser, body: unknown, sent: SettingsSent | null = null, now = Date.now()): Promise<AgentReportReply> {
    // the parsed report is left behind in prepare: while the report waits for its batch (TAKE_WINDOW_MS), only its rows
    // and its answer are held, not the tree JSON.parse built, which the garbage collector would copy at each collection
    const prepared = await this.prepare(account, body, sent, now);
    const { service, instance, notices } = prepared;
    const { taken: firstTime, journalled } = await this.takes.add(prepared.take);
    // a drill's faults as the plan has them once the report is taken: the whole list each time, so a fault left out
    // ends on the instance
    const faults = this.faults.forInstance(service, instance, prepared.targets);
    const moves = prepared.take.moves.length;
    if (firstTime && journalled < moves) {
      notices.push(
        `service ${service} reported more than ${AGENT_PROTOCOL_LIMITS.movesPerServicePerMinute} moves this minute, the most the journal takes from one service: ${moves - journalled} moves left out`,
      );
    }
    this.faults.reported(service, instance, prepared.faultsStatus, faults);
    if (sent && prepared.settings) {
      sent.clear();
      for (const [name, settings] of prepared.settings) sent.set(name, settings);
    }
    return {
      version: AGENT_PROTOCOL_VERSION,
      reportEveryMs: prepared.everyMs,
      controls: prepared.controls,
      ...(notices.length > 0 ? { notices } : {}),
      ...(faults.length > 0 ? { faults } : {}),
    };
  }

  /**
   * A report read, judged and turned into what is to be written (its instance rows and moves) and what its answer
   * carries; refused with the error a POST is answered with.
   */
  private async prepare(account: SessionUser, body: unknown, sent: SettingsSent | null, now: number): Promise<Prepared> {
    const service = serviceAccountNameOf(account.email);
    // counted before the report is read: an account past its reports pays for none of that (a stream's reports count
    // against TOKEN_RATE_LIMIT only at its upgrade)
    const wait = await this.perAccount.take(account.id, now);
    if (wait > 0) {
      throw new RetryLater(
        `Service account ${service} sent ${this.config.AGENT_REPORT_RATE_LIMIT} reports this minute, the most one account may with all its tokens (AGENT_REPORT_RATE_LIMIT); try again in ${wait} s`,
        wait,
      );
    }
    const report = this.read(body);
    const breakers = settled(report.breakers, sent);
    if (report.service !== service) {
      throw new ForbiddenException(`This token reports for service ${service}; it cannot report for ${report.service}`);
    }
    if (report.id !== undefined && !(now - Date.parse(report.sentAt) <= AGENT_REPORT_RESEND_MS)) {
      // its id may be forgotten already (AGENT_REPORT_ID_TTL_MS): a try of it that landed would be counted twice
      throw new BadRequestException(
        `Report ${report.id} was sent at ${report.sentAt}, more than ${AGENT_REPORT_RESEND_MS / 60_000} minutes ago, the oldest a report with an id is taken; it is not taken (if this instance's clock is behind, set it right)`,
      );
    }
    await this.admit(service, report, now);
    await this.catalog.ready();
    const { taken, notices } = this.withinLimits(service, breakers);
    const stale = taken.filter(({ breaker, config }) => changedFrom(config, breaker)).map(({ breaker }) => breaker);
    if (stale.length > 0) await this.bringUpToDate(service, stale);
    const everyMs = this.config.AGENT_REPORT_EVERY_MS;
    const periodMs = Math.min(MOVES_KEPT_MS, Math.max(MIN_PERIOD_MS, report.periodMs ?? everyMs));
    const instance = report.instance;
    const rows: InstanceReport[] = [];
    const moves: ReportedMove[] = [];
    const controls: AgentBreakerControl[] = [];
    const targets: { id: number; name: string }[] = [];
    // the configurations as the catalog has them now: those just made or brought up to date included
    const current = stale.length > 0 ? this.catalog.ofService('agent', service) : null;
    for (const { breaker, config: known } of taken) {
      const config = current ? current.get(breaker.name.toLowerCase()) : known;
      if (!config) continue;
      for (const move of breaker.transitions) {
        const at = AgentIngest.moveTime(move.at, now);
        if (at !== null) moves.push({ configId: config.id, ...move, at, serviceInstance: instance });
      }
      rows.push({
        configId: config.id,
        instance,
        state: breaker.state,
        override: breaker.override,
        reportedAt: now,
        // the period the hub asks for (the report's own may span a gap after a reconnection): an instance is stale
        // after three of them
        periodMs: everyMs,
        lastMoveAt: lastMove(breaker, now),
        period: toStoredPeriod(breaker.window, now, periodMs),
      });
      const control = controlOf(config, breaker.name);
      if (control) controls.push(control);
      targets.push({ id: config.id, name: breaker.name });
    }
    return {
      service,
      instance,
      everyMs,
      take: { service, reportId: report.id ?? null, instance, reports: rows, moves, now },
      notices,
      controls,
      targets,
      faultsStatus: report.faults,
      settings: sameAsSent(breakers, sent) ? null : breakers.map((breaker) => [breaker.name, breaker.settings]),
    };
  }

  /**
   * Makes or brings up to date the configurations of a report's breakers that are new, or whose library or settings
   * changed: each is announced like one an operator changed, and one another replica made meanwhile is kept.
   */
  private async bringUpToDate(service: string, stale: readonly SettledBreaker[]): Promise<void> {
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
    await Promise.all(
      ensured.map(({ config, created }) => {
        const known = this.catalog.find('agent', service, config.name);
        if (created || !known || known.updatedAt.getTime() !== config.updatedAt.getTime()) return this.breakers.announceChange(config);
        this.catalog.keep(config);
        return undefined;
      }),
    );
  }
}
