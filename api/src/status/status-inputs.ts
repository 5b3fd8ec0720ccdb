import { Injectable } from '@nestjs/common';
import type { ComponentInputs, ComponentState, MemberBreaker } from '@cbh/contracts';
import { BreakersService, MetricsService } from '../breakers';
import { DomainsService, type DomainHealth } from '../domains';
import { NotificationSettingsService, isWindowActive, windowCoversSubject, type CoveredSubject } from '../notifications';

/** What a component is judged on, for one round over many components. */
export interface Judged {
  id: number;
  breakerIds: readonly number[];
  domainIds: readonly number[];
}

/**
 * Gathers, once per round, what the components' states derive from: the breakers' live states (summed over every
 * replica and instance), the domains' checks, the maintenance windows active now, and the states open incidents set.
 */
@Injectable()
export class StatusInputs {
  constructor(
    private readonly metrics: MetricsService,
    private readonly breakers: BreakersService,
    private readonly domains: DomainsService,
    private readonly notifications: NotificationSettingsService,
  ) {}

  async gather(components: readonly Judged[], incidentStates: ReadonlyMap<number, ComponentState>, now = new Date()) {
    const breakerIds = [...new Set(components.flatMap((component) => component.breakerIds))];
    const domainIds = [...new Set(components.flatMap((component) => component.domainIds))];
    const states = new Map(this.metrics.everyBreaker(now.getTime()).map((stats) => [stats.configId, stats.state]));
    const health = new Map<number, DomainHealth>((await this.domains.health(domainIds)).map((domain) => [domain.id, domain]));
    const windows = (await this.notifications.listWindows(now)).filter((window) =>
      isWindowActive({ startsAt: new Date(window.startsAt), endsAt: new Date(window.endsAt), repeatWeekly: window.repeatWeekly }, now),
    );
    const subjects = new Map<string, CoveredSubject>();
    if (windows.length > 0) {
      for (const ref of await this.breakers.refsOf(breakerIds)) subjects.set(`b${ref.id}`, { kind: 'breaker', ...ref });
      for (const domain of health.values()) subjects.set(`d${domain.id}`, { kind: 'domain', name: domain.name });
    }
    const covered = (key: string) => {
      const subject = subjects.get(key);
      return subject !== undefined && windows.some((window) => windowCoversSubject(window, subject));
    };
    return new Map<number, ComponentInputs>(
      components.map((component) => [
        component.id,
        {
          // a breaker no replica or instance knows (deleted since) counts as closed: it refuses nobody
          breakers: component.breakerIds.map((id): MemberBreaker => ({ state: states.get(id) ?? 'CLOSED' })),
          domains: component.domainIds.flatMap((id) => {
            const domain = health.get(id);
            return domain ? [{ down: domain.down, slow: domain.slow }] : [];
          }),
          inMaintenance: [...component.breakerIds.map((id) => `b${id}`), ...component.domainIds.map((id) => `d${id}`)].some(covered),
          incidentState: incidentStates.get(component.id) ?? null,
        },
      ]),
    );
  }
}
