import {
  CANARY_SLO_BURN_FACTOR,
  CANARY_SLO_WINDOW_MINUTES,
  RELEASE_LIMITS,
  releaseRemoteName,
  type ReleaseView,
  type SloView,
} from '@cbh/contracts';

/** The SLOs a canary may be judged by, at most, as the API's canaryReleaseSchema checks it. */
export const CANARY_MAX_SLOS = RELEASE_LIMITS.canarySlos;

/** When SLOs roll a canary back: the same rule the API applies, said where the SLOs are picked and where they show. */
export const CANARY_SLO_RULE =
  `Rolled back by itself when, over the last ${CANARY_SLO_WINDOW_MINUTES} minutes, one of them burns its error budget ` +
  `more than ${CANARY_SLO_BURN_FACTOR} times as fast among the canary’s visitors as among the live version’s.`;

export const NO_SLO_TEXT = 'No SLO measures this remote’s loads: create one on the SLOs page to have the canary judged by it.';

/**
 * The SLOs that may judge a canary of `remote`: those over its own loads, whichever spelling of its name either
 * side uses; any other the API refuses.
 */
export function slosJudging(slos: readonly SloView[], remote: string): SloView[] {
  const name = releaseRemoteName(remote);
  return slos.filter((slo) => slo.indicator.kind === 'remote-loads' && releaseRemoteName(slo.indicator.remote) === name);
}

/**
 * The `slos` of a canary request: the ticked ones, or none said at all when none is ticked — except for the running
 * canary that names some, where an empty list is what drops them.
 */
export function slosToSend(chosen: readonly number[], release: ReleaseView, versionId: number): number[] | undefined {
  const namedNow = release.canary?.versionId === versionId && release.canary.slos.length > 0;
  return chosen.length > 0 || namedNow ? [...chosen] : undefined;
}
