import { UnprocessableEntityException } from '@nestjs/common';
import type {
  BreakerSource,
  DrillDefinition,
  DrillDefinitionBreakerRef,
  DrillDefinitionExpectation,
  DrillDefinitionStep,
  DrillFault,
} from '@cbh/contracts';

/*
 * Saved drills name their breakers as the configuration document does — one of the hub's by its name, a service's by
 * { service, name } — since ids differ between hubs. Here: their stable form, and looking those names up.
 */

/** A breaker as the hub has it, to be found by the name a saved drill gives. */
export interface NamedBreaker {
  /** null: one the same configuration document creates, not yet in the hub. */
  id: number | null;
  name: string;
  source: BreakerSource;
  service: string | null;
}

const serviceKey = (service: string, name: string) => JSON.stringify([service.toLowerCase(), name.toLowerCase()]);

/** The hub's breakers by the names saved drills give them, whatever the letter case (as the unique indexes match them). */
export class DrillBreakerNames {
  private readonly hub = new Map<string, NamedBreaker>();
  private readonly services = new Map<string, NamedBreaker>();

  constructor(rows: readonly NamedBreaker[]) {
    for (const row of rows) {
      if (row.source === 'hub') this.hub.set(row.name.toLowerCase(), row);
      else if (row.service !== null) {
        // a service's breaker may be both reported by its agent and scraped: the agent's is the one that takes faults
        const key = serviceKey(row.service, row.name);
        if (this.services.get(key)?.source !== 'agent') this.services.set(key, row);
      }
    }
  }

  find(ref: DrillDefinitionBreakerRef): NamedBreaker | undefined {
    return typeof ref === 'string' ? this.hub.get(ref.toLowerCase()) : this.services.get(serviceKey(ref.service, ref.name));
  }
}

/** What is wrong with the breaker a saved drill names (as POST /api/drills would answer), or null when it can run. */
function problemOf(ref: DrillDefinitionBreakerRef, names: DrillBreakerNames): string | null {
  const breaker = names.find(ref);
  if (!breaker) return typeof ref === 'string' ? `no hub breaker named ${ref}` : `no breaker ${ref.name} of the service ${ref.service}`;
  if (breaker.source === 'scrape') {
    return `${breaker.name} (${breaker.service}) is scraped from resilience4j's endpoints: the hub cannot inject faults into its calls (run the agent)`;
  }
  return null;
}

/** The breakers a saved drill names, each with its place in it (`steps[0].breaker`). */
export function namedBreakers(definition: Pick<DrillDefinition, 'steps' | 'expectations'>) {
  return [
    ...definition.steps.map((step, index) => ({ place: `steps[${index}].breaker`, ref: step.breaker })),
    ...definition.expectations.map((expectation, index) => ({ place: `expectations[${index}].breaker`, ref: expectation.breaker })),
  ];
}

/** A saved drill naming a breaker that is not there (or cannot take faults) is a 422 naming its place, after `prefix`. */
export function refuseUnknownBreakers(definition: Pick<DrillDefinition, 'steps' | 'expectations'>, names: DrillBreakerNames, prefix = '') {
  for (const { place, ref } of namedBreakers(definition)) {
    const problem = problemOf(ref, names);
    if (problem) throw new UnprocessableEntityException(`${prefix}${place}: ${problem}`);
  }
}

const refInOrder = (ref: DrillDefinitionBreakerRef): DrillDefinitionBreakerRef =>
  typeof ref === 'string' ? ref : { service: ref.service, name: ref.name };

const faultInOrder = (fault: DrillFault): DrillFault => ({
  kind: fault.kind,
  rate: fault.rate,
  ...(fault.latencyMs !== undefined && { latencyMs: fault.latencyMs }),
});

/**
 * A saved drill's steps and expectations, keys always in this order (the stored JSON keeps none): what the API answers
 * and the configuration document writes, so that an export applied and exported again gives the same bytes.
 */
export function definitionInOrder(definition: Pick<DrillDefinition, 'steps' | 'expectations'>): {
  steps: DrillDefinitionStep[];
  expectations: DrillDefinitionExpectation[];
} {
  return {
    steps: definition.steps.map((step) => ({
      breaker: refInOrder(step.breaker),
      fault: faultInOrder(step.fault),
      instances: step.instances,
      durationSeconds: step.durationSeconds,
    })),
    expectations: definition.expectations.map((expectation) => ({
      breaker: refInOrder(expectation.breaker),
      state: expectation.state,
      withinSeconds: expectation.withinSeconds,
      after: expectation.after,
    })),
  };
}
