import { Injectable } from '@nestjs/common';
import type { AgentFault, AgentFaultsStatus, DrillFault } from '@cbh/contracts';

/**
 * The faults a drill runs, as the breakers' code asks for them: the drills context, which sits above breakers,
 * registers its plan when it starts; with none registered there is no fault anywhere.
 */
export interface FaultPlan {
  /** The faults one instance of a service is to run now, of the breakers it reported: from memory, on every report. */
  forInstance(service: string, instance: string, breakers: readonly { id: number; name: string }[]): AgentFault[];
  /** What an instance said of faults in its report, after it was sent `sent`. */
  reported(service: string, instance: string, status: AgentFaultsStatus | undefined, sent: readonly AgentFault[]): void;
  /** The fault on one of the hub's own breakers now (its load tests' and demo services' calls), if any. */
  forHubBreaker(configId: number): DrillFault | undefined;
}

/** Where the drills' plan registers, and where the agent's reply, the load tests and the demo services ask it. */
@Injectable()
export class BreakerFaults {
  private plan: FaultPlan | null = null;

  register(plan: FaultPlan) {
    this.plan = plan;
  }

  forInstance(service: string, instance: string, breakers: readonly { id: number; name: string }[]): AgentFault[] {
    return this.plan?.forInstance(service, instance, breakers) ?? [];
  }

  reported(service: string, instance: string, status: AgentFaultsStatus | undefined, sent: readonly AgentFault[]) {
    this.plan?.reported(service, instance, status, sent);
  }

  forHubBreaker(configId: number): DrillFault | undefined {
    return this.plan?.forHubBreaker(configId);
  }
}

/** How long a timed-out call of one of the hub's own breakers takes when the fault does not say. */
export const HUB_TIMEOUT_FAULT_MS = 5000;

/**
 * A simulated call's outcome under a fault, for the hub's own breakers: `rate` of the calls fail (error), take
 * `latencyMs` more (latency), or take as long as a timeout and fail (timeout); the rest are left as they were.
 */
export function faultedCall(
  fault: DrillFault | undefined,
  call: { ok: boolean; latencyMs: number },
  timeoutMs: number,
  random: () => number = Math.random,
): { ok: boolean; latencyMs: number } {
  if (!fault || random() >= fault.rate) return call;
  if (fault.kind === 'error') return { ok: false, latencyMs: Math.min(call.latencyMs, 1) };
  if (fault.kind === 'latency') return { ok: call.ok, latencyMs: call.latencyMs + (fault.latencyMs ?? 0) };
  return { ok: false, latencyMs: fault.latencyMs ?? timeoutMs };
}
