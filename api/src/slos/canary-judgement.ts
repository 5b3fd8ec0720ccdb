import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { burnRateOf, CANARY_SLO_BURN_FACTOR, CANARY_SLO_WINDOW_MINUTES } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig } from '../platform';
import { CanaryJudges, type CanarySloJudge, type CanaryUnderJudgement, type SloVerdict } from '../releases';
import { CanaryJudgementRepository } from './canary-judgement.repository';

/** People who must have had a bad canary load for an SLO to roll it back: one person's reports alone never do. */
const MIN_FAILING_PEOPLE = 2;

const rate = (value: number) => `${value.toFixed(1)}×`;

/**
 * Judges canaries by the SLOs they name. Only an SLO over the remote's loads (kind remote-loads) can: its events are
 * the visitors' loads and errors after render, each of one version, so the canary's visitors and the live version's
 * can be told apart — a breaker's calls or a domain's checks cannot. A canary is rolled back when, over the last
 * CANARY_SLO_WINDOW_MINUTES, it has CANARY_SLO_MIN_LOADS loads at least, two people saw it fail, and a named SLO
 * burns more than CANARY_SLO_BURN_FACTOR times as fast among its visitors as among the live version's. With fewer
 * live loads than that minimum there is nothing to compare with: the canary is then held to the budget itself (a burn
 * rate of 1, spending it exactly over the SLO's window).
 */
@Injectable()
export class CanarySloJudgement implements CanarySloJudge, OnModuleInit {
  constructor(
    private readonly judges: CanaryJudges,
    private readonly repository: CanaryJudgementRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit() {
    this.judges.register(this);
  }

  async describe(remote: string, sloIds: readonly number[]) {
    return (await this.repository.slos(sloIds)).map((slo) => ({
      id: slo.id,
      name: slo.name,
      problem:
        slo.kind !== 'remote-loads'
          ? `"${slo.name}" measures ${slo.kind}, not a remote's loads: only an SLO of kind remote-loads can judge a canary`
          : slo.remote !== remote
            ? `"${slo.name}" measures the loads of ${slo.remote}, not of ${remote}`
            : null,
    }));
  }

  async verdict(canary: CanaryUnderJudgement): Promise<SloVerdict | null> {
    const minimum = this.config.CANARY_SLO_MIN_LOADS;
    const loads = await this.repository.loads(
      canary.remote,
      canary.versionId,
      canary.liveVersionId,
      canary.startedAt,
      CANARY_SLO_WINDOW_MINUTES,
    );
    if (loads.canary.total < minimum || loads.failingPeople < MIN_FAILING_PEOPLE) return null;
    for (const slo of await this.repository.slos(canary.sloIds)) {
      if (slo.kind !== 'remote-loads' || slo.remote !== canary.remote) continue;
      const burn = burnRateOf(loads.canary, slo.target)!;
      const compared = loads.live.total >= minimum;
      const live = compared ? burnRateOf(loads.live, slo.target)! : 1;
      if (burn <= CANARY_SLO_BURN_FACTOR * live) continue;
      const bad = loads.canary.total - loads.canary.good;
      const against = compared
        ? `${rate(live)} among the live version's (${loads.live.total - loads.live.good} of ${loads.live.total} bad)`
        : `the budget itself (1.0×: the live version had fewer than ${minimum} loads to compare with)`;
      return {
        slo: { id: slo.id, name: slo.name },
        reason: `the SLO "${slo.name}" (${slo.target} %) burned its error budget at ${rate(burn)} among the canary's visitors over the last ${CANARY_SLO_WINDOW_MINUTES} minutes (${bad} of ${loads.canary.total} loads bad, for ${loads.failingPeople} people), more than ${CANARY_SLO_BURN_FACTOR} times ${against}`,
      };
    }
    return null;
  }
}
