import {
  describeFault,
  drillFaultId,
  drillPath,
  type DrillBreakerView,
  type DrillDetailView,
  type DrillExpectationView,
  type DrillStepView,
  type DrillTimelineEntry,
  type DrillView,
} from '@cbh/contracts';
import { CliError, DRILL_EXIT, HubRefusal, HubUnreachable } from './cli-error';
import { explainRefusal, type DrillFile } from './drill-file';
import type { HubClient } from './hub-client';
import type { Progress } from './progress';

/*
 * `cbh drill run`: a drill started from a file, its blast radius printed, and with --wait followed until its verdict
 * is final, its timeline printed as it grows.
 */

/** How often the drill is read again while it is followed: the hub's runner judges it every second. */
const POLL_MS = 1000;
/** A poll that gets no answer within this is asked again (a hub under load, a replica restarting). */
const POLL_TIMEOUT_MS = 10_000;
/** How long polls may fail in a row before cbh gives up following (the drill runs on, bounded by its steps). */
const GIVE_UP_AFTER_MS = 30_000;
/** The stop on the way out must fit in the grace a CI runner gives a cancelled job (7.5 s on GitHub Actions). */
const STOP_TIMEOUT_MS = 5000;

const KIND_WIDTH = 'expectation_missed'.length;

/** An ISO instant as a time of day in UTC, as every line of a drill prints it: `12:00:03Z`. */
export const clock = (iso: string) => `${iso.slice(11, 19)}Z`;

const breakerLabel = (breaker: DrillBreakerView) => (breaker.service ? `${breaker.name} (${breaker.service})` : breaker.name);

/** A step's blast radius: what fault, on which breaker, on how many instances, for how long. */
export function stepLine(step: DrillStepView, steps: number): string {
  const where =
    step.breaker.service === null
      ? "the hub's own breaker, on every replica"
      : step.instances === 'all'
        ? 'all instances'
        : `${step.instances} % of instances`;
  return `Step ${step.index + 1} of ${steps}, ${clock(step.startsAt)} for ${step.durationSeconds} s: ${describeFault(step.fault)} of ${breakerLabel(step.breaker)}, ${where}`;
}

const expectationText = (expectation: DrillExpectationView) =>
  `${breakerLabel(expectation.breaker)} ${expectation.state} within ${expectation.withinSeconds} s of the drill's ${expectation.after}`;

/** What `cbh drill run` prints once the hub has started the drill. */
export function startedLines(view: DrillView, hubUrl: string): string[] {
  return [
    `Drill ${view.id} "${view.name}" started, until ${clock(view.endsAt)}`,
    ...view.steps.map((step) => stepLine(step, view.steps.length)),
    ...view.expectations.map((expectation, index) => `Expectation ${index + 1}: ${expectationText(expectation)}`),
    `${hubUrl}${drillPath(view.id)}`,
  ];
}

/** A timeline entry as one line: time, kind, text. */
export const timelineLine = (entry: DrillTimelineEntry) => `${clock(entry.at)}  ${entry.kind.padEnd(KIND_WIDTH)}  ${entry.text}`;

/** Entries are sorted by time, and one may come in before those already printed (an instance's late report): each is known by its content. */
const entryKey = (entry: DrillTimelineEntry) => JSON.stringify([entry.at, entry.kind, entry.text, entry.instance ?? null]);

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * Why an expectation was missed, from the timeline: how far the breaker got, and whether the drill's fault reached
 * its instances at all (the commonest reason: an agent that is not running, or a service that does not take faults).
 */
export function whyMissed(detail: DrillDetailView, expectation: DrillExpectationView): string {
  const reference = expectation.after === 'start' ? detail.startedAt : detail.endedAt;
  const moves = detail.timeline.filter((entry) => entry.kind === 'transition' && entry.breakerId === expectation.breaker.id);
  const reached = moves.find((entry) => entry.text.includes(`→ ${expectation.state}`) && reference !== null && entry.at >= reference);
  const reasons = [
    reached && reference
      ? `it reached ${expectation.state} only ${seconds(Date.parse(reached.at) - Date.parse(reference))} s after the drill's ${expectation.after}`
      : moves.length
        ? `it never reached ${expectation.state}; its last move: ${moves.at(-1)!.text}`
        : `it never moved`,
  ];
  const steps = detail.steps.filter((step) => step.breaker.id === expectation.breaker.id);
  if (steps.length && expectation.breaker.service !== null) {
    const ids = steps.map((step) => drillFaultId(detail.id, step.index));
    const of = (kind: DrillTimelineEntry['kind']) =>
      detail.timeline.filter((entry) => entry.kind === kind && ids.some((id) => entry.text.includes(`${id} `)));
    const [applied, refused, sent] = [of('fault_applied'), of('fault_refused'), of('fault_sent')];
    const instances = (n: number) => `${n} instance${n === 1 ? '' : 's'}`;
    if (applied.length) reasons.push(`its fault was applied on ${instances(applied.length)}`);
    else if (refused.length) reasons.push(`its fault was refused (${refused[0]!.text.replace(/^[^:]*: /, '')})`);
    else if (sent.length) reasons.push(`its fault was sent to ${instances(sent.length)}, and none said it applied it`);
    else reasons.push(`no instance of ${expectation.breaker.service} reported while its fault was on (is its agent running?)`);
  }
  return reasons.join('; ');
}

/** The end of a followed drill: the verdict, and for a missed one the whole timeline and each expectation missed, and why. */
export function verdictLines(detail: DrillDetailView, hubUrl: string): string[] {
  const held = detail.expectations.filter((expectation) => expectation.result === 'met').length;
  const total = detail.expectations.length;
  if (detail.verdict === 'met') {
    return [
      total
        ? `Drill ${detail.id} "${detail.name}": met, ${total === 1 ? 'its expectation' : `all ${total} expectations`} held`
        : `Drill ${detail.id} "${detail.name}": met, it ran to its end (it has no expectations)`,
      ...runsOn(detail, hubUrl),
    ];
  }
  return [
    `Drill ${detail.id} "${detail.name}": missed, ${held} of ${total} expectation${total === 1 ? '' : 's'} held`,
    'Timeline:',
    ...detail.timeline.map((entry) => `  ${timelineLine(entry)}`),
    ...detail.expectations.flatMap((expectation, index) =>
      expectation.result === 'missed'
        ? [`Expectation ${index + 1} missed: ${expectationText(expectation)}: ${whyMissed(detail, expectation)}`]
        : [],
    ),
    ...runsOn(detail, hubUrl),
  ];
}

/** A verdict can be final before the last step ends: the faults run on to their end, which is worth saying. */
function runsOn(detail: DrillDetailView, hubUrl: string): string[] {
  if (detail.state !== 'running') return [];
  return [`Drill ${detail.id} runs on until ${clock(detail.endsAt)} (stop it on its page: ${hubUrl}${drillPath(detail.id)})`];
}

/** The countdown a terminal shows while the drill is followed: the step running and its time left, or the judging left. */
export function countdownText(detail: DrillDetailView, now: number): string {
  const left = (iso: string) => `${Math.max(0, Math.ceil((Date.parse(iso) - now) / 1000))} s left`;
  if (detail.state === 'running') {
    const step = detail.steps.find((each) => Date.parse(each.endsAt) > now) ?? detail.steps.at(-1)!;
    return `Step ${step.index + 1} of ${detail.steps.length}: ${describeFault(step.fault)} of ${breakerLabel(step.breaker)}, ${left(step.endsAt)}`;
  }
  const pending = detail.expectations.filter((expectation) => expectation.result === 'pending');
  const ended = Date.parse(detail.endedAt ?? detail.endsAt);
  const deadline = Math.max(
    ...pending.map((e) => (e.after === 'start' ? Date.parse(detail.startedAt) : ended) + e.withinSeconds * 1000),
    now,
  );
  return `Judging ${pending.length} expectation${pending.length === 1 ? '' : 's'}, ${left(new Date(deadline).toISOString())}`;
}

/** POST /api/drills; a refusal of the body is placed in the file, as a document's is. */
export async function startDrill(hub: HubClient, file: DrillFile): Promise<DrillView> {
  try {
    return await hub.json<DrillView>('/api/drills', {
      method: 'POST',
      body: JSON.stringify(file.drill),
      contentType: 'application/json',
    });
  } catch (error) {
    if (error instanceof HubRefusal && (error.status === 400 || error.status === 422)) {
      throw new CliError(`The hub refused ${file.file.name} (${error.status}):\n${explainRefusal(file, error.hubMessage)}`);
    }
    throw error;
  }
}

/**
 * While a drill is followed, Ctrl-C (SIGINT) or a cancelled CI job (SIGTERM) stops it before cbh exits (130 or
 * 143): a job cancelled must not leave faults running in production. A signal before the hub has answered the start
 * stops the drill as soon as it has. Further signals while stopping are noted, not obeyed: the stop is bounded by
 * STOP_TIMEOUT_MS anyway.
 */
export class StopOnSignal {
  private id: number | undefined;
  private signal: 'SIGINT' | 'SIGTERM' | undefined;

  constructor(
    private readonly hub: HubClient,
    private readonly progress: Progress,
  ) {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }

  /** Whether a signal came: the follower then prints nothing more while the stop is on its way. */
  get stopping(): boolean {
    return this.signal !== undefined;
  }

  /** The drill is running: from now on a signal stops it (at once, when one came while it was being started). */
  started(id: number) {
    this.id = id;
    if (this.signal) void this.stop();
  }

  /** The start failed: a signal that came meanwhile has nothing to stop, and still decides the exit code. */
  failed() {
    if (this.signal) process.exit(DRILL_EXIT[this.signal]);
  }

  dispose() {
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
  }

  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.progress.stop();
    if (this.signal) {
      console.error(`cbh: ${signal}: still stopping drill ${this.id ?? ''}…`);
      return;
    }
    this.signal = signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
    if (this.id === undefined) console.error(`cbh: ${signal}: the drill is stopped as soon as the hub has started it…`);
    else void this.stop();
  };

  private async stop(): Promise<never> {
    const id = this.id!;
    console.error(`cbh: ${this.signal}: stopping drill ${id}, so that its faults do not run on…`);
    try {
      await this.hub.json(`/api/drills/${id}/stop`, { method: 'POST', timeoutMs: STOP_TIMEOUT_MS });
      console.error(`Stopped drill ${id}: every fault is removed at its instances' next report`);
    } catch (error) {
      if (error instanceof HubRefusal && error.status === 409) console.error(`Drill ${id} had ended already`);
      else {
        console.error(
          `cbh: drill ${id} may still be running: ${(error as Error).message}. Stop it on ${this.hub.url}${drillPath(id)}, or every drill with POST /api/drills/stop-all`,
        );
      }
    }
    process.exit(DRILL_EXIT[this.signal!]);
  }
}

/** Whether a failed poll is worth asking again: no answer, or a hub that failed or asks to slow down. */
const transient = (error: unknown) =>
  error instanceof HubUnreachable || (error instanceof HubRefusal && (error.status >= 500 || error.status === 429));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new Promise<never>(() => undefined);

/**
 * Reads the drill every second until its verdict is final, printing each timeline entry not printed before as it
 * appears; on a terminal a countdown line shows what runs. Resolves to the drill as last read.
 */
export async function followDrill(
  hub: HubClient,
  view: DrillView,
  { progress, countdown, print, guard }: { progress: Progress; countdown: boolean; print: (line: string) => void; guard: StopOnSignal },
): Promise<DrillDetailView> {
  const printed = new Set<string>();
  let failingSince: number | undefined;
  if (!countdown) progress.show(`Following drill ${view.id} until its verdict is final…`);
  for (;;) {
    let detail: DrillDetailView | undefined;
    try {
      detail = await hub.json<DrillDetailView>(`/api/drills/${view.id}`, { timeoutMs: POLL_TIMEOUT_MS });
      failingSince = undefined;
    } catch (error) {
      if (guard.stopping) return never();
      if (!transient(error)) throw error;
      if (failingSince === undefined) {
        failingSince = Date.now();
        progress.stop();
        console.error(`cbh: ${(error as Error).message}; asking again`);
      } else if (Date.now() - failingSince > GIVE_UP_AFTER_MS) {
        throw new CliError(
          `${(error as Error).message}: gave up following drill ${view.id} after ${GIVE_UP_AFTER_MS / 1000} s; it runs on until ${clock(view.endsAt)} (${hub.url}${drillPath(view.id)})`,
        );
      }
    }
    // the stop on its way decides the exit; nothing more is printed meanwhile
    if (guard.stopping) return never();
    if (detail) {
      const fresh = detail.timeline.filter((entry) => !printed.has(entryKey(entry)));
      if (fresh.length) progress.stop();
      for (const entry of fresh) {
        printed.add(entryKey(entry));
        print(timelineLine(entry));
      }
      if (detail.verdict !== 'pending') {
        progress.stop();
        return detail;
      }
      if (countdown) progress.show(countdownText(detail, Date.now()));
    }
    await sleep(POLL_MS);
  }
}
