import {
  describeFault,
  type DrillDefinitionView,
  type DrillExpectationView,
  type DrillFault,
  type DrillState,
  type DrillVerdict,
  type DrillView,
} from '@cbh/contracts';
import { theme } from '@cbh/ui';
import { durationText } from '../shared/duration-text';

/* The drills' words: states, verdicts, a step's blast radius and an expectation, as the screens say them. */

export const STATE_TEXT: Record<DrillState, string> = { running: 'Running', finished: 'Finished', stopped: 'Stopped' };
export const STATE_COLORS: Record<DrillState, string> = {
  running: theme.colors.orange,
  finished: theme.colors.grey,
  stopped: theme.colors.grey,
};

export const VERDICT_TEXT: Record<DrillVerdict, string> = { met: 'Met', missed: 'Missed', pending: 'Pending' };
export const VERDICT_COLORS: Record<DrillVerdict, string> = {
  met: theme.colors.success,
  missed: theme.colors.destructive,
  pending: theme.colors.yellow,
};

/** A breaker as a drill's words name it: its name, and its service's where it runs in one. */
export interface NamedBreaker {
  name: string;
  service: string | null;
}

/** "payments'" and "search's": whose calls a fault hits. */
const possessive = (name: string) => (name.endsWith('s') ? `${name}'` : `${name}'s`);

/** 'all instances', '25 % of instances', with the service they belong to. */
export function instancesText(instances: 'all' | number, breaker: NamedBreaker): string {
  const which = instances === 'all' ? 'all instances' : `${instances} % of instances`;
  return breaker.service ? `${which} of ${breaker.service}` : which;
}

/** What a step does to real traffic, in one line: "latency 800 ms on 25 % of payments' calls on all instances for 60 s". */
export function blastRadius(step: {
  breaker: NamedBreaker;
  fault: DrillFault;
  instances: 'all' | number;
  durationSeconds: number;
}): string {
  const fault = describeFault(step.fault).replace(/of calls$/, `of ${possessive(step.breaker.name)} calls`);
  return `${fault} on ${instancesText(step.instances, step.breaker)} for ${step.durationSeconds} s`;
}

/** What an expectation waits for: "OPEN within 30 s of the start", "CLOSED within 120 s after the end". */
export function expectedText(expectation: Pick<DrillExpectationView, 'state' | 'withinSeconds' | 'after'>): string {
  return `${expectation.state} within ${expectation.withinSeconds} s ${expectation.after === 'start' ? 'of the start' : 'after the end'}`;
}

/** 'm:ss' (or 'h:mm:ss') left until a moment; never below 0:00. */
export function countdownText(until: string, now: number): string {
  const total = Math.max(0, Math.ceil((Date.parse(until) - now) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** Where a step stands at `now`: waiting for its turn, running, done, or cut short by a stop. */
export function stepPhase(
  step: { startsAt: string; endsAt: string },
  drill: Pick<DrillView, 'state' | 'endedAt'>,
  now: number,
): 'waiting' | 'running' | 'ran' | 'cut' | 'skipped' {
  const starts = Date.parse(step.startsAt);
  const ends = Date.parse(step.endsAt);
  if (drill.state !== 'running') {
    const ended = drill.endedAt ? Date.parse(drill.endedAt) : ends;
    if (ended <= starts) return 'skipped';
    return ended < ends ? 'cut' : 'ran';
  }
  if (now < starts) return 'waiting';
  return now < ends ? 'running' : 'ran';
}

/** A drill's outcome in a sentence, for its report: "Stopped by Ada after 40 s. 1 of 2 expectations met, 1 missed." */
export function outcomeText(drill: DrillView): string {
  const ran = drill.endedAt ? durationText((Date.parse(drill.endedAt) - Date.parse(drill.startedAt)) / 1000) : null;
  const how =
    drill.state === 'stopped'
      ? `Stopped${drill.stoppedBy ? ` by ${drill.stoppedBy}` : ''}${ran ? ` after ${ran}` : ''}.`
      : `Finished${ran ? ` after ${ran}` : ''}, every step run to its end.`;
  const total = drill.expectations.length;
  if (total === 0) return `${how} It set no expectations.`;
  const count = (result: DrillVerdict) => drill.expectations.filter((expectation) => expectation.result === result).length;
  const rest = [count('missed') ? `${count('missed')} missed` : '', count('pending') ? `${count('pending')} still pending` : ''].filter(
    Boolean,
  );
  return `${how} ${count('met')} of ${total} expectation${total === 1 ? '' : 's'} met${rest.length ? `, ${rest.join(', ')}` : ''}.`;
}

/** A saved drill's steps as blast radii; its breakers are named as the document names them (a hub breaker by name). */
export function definitionSteps(drill: Pick<DrillDefinitionView, 'steps'>): string[] {
  return drill.steps.map((step) =>
    blastRadius({
      ...step,
      breaker:
        typeof step.breaker === 'string'
          ? { name: step.breaker, service: null }
          : { name: step.breaker.name, service: step.breaker.service },
    }),
  );
}
