import { Injectable, UnprocessableEntityException } from '@nestjs/common';

/** A canary as its SLOs judge it: its version against the live one (null: the deployed folder), since it started. */
export interface CanaryUnderJudgement {
  remote: string;
  versionId: number;
  liveVersionId: number | null;
  startedAt: Date;
  sloIds: readonly number[];
}

/** Why a canary is rolled back by one of its SLOs. */
export interface SloVerdict {
  slo: { id: number; name: string };
  reason: string;
}

/**
 * What judges canaries by SLOs. The slos context, which sits above releases (it reads the remote loads releases
 * keep), registers one when it starts: releases names no SLO code, and a hub without it refuses canaries naming SLOs.
 */
export interface CanarySloJudge {
  /**
   * The SLOs of these ids that exist, each with why it may not judge a canary of `remote` (null when it may: an SLO
   * over that remote's loads).
   */
  describe(remote: string, sloIds: readonly number[]): Promise<{ id: number; name: string; problem: string | null }[]>;
  /** The first named SLO the canary burns its budget too fast for, with why; null while none does. */
  verdict(canary: CanaryUnderJudgement): Promise<SloVerdict | null>;
}

/** Where the SLO judge registers, and where releases asks it. */
@Injectable()
export class CanaryJudges {
  private judge: CanarySloJudge | null = null;

  register(judge: CanarySloJudge) {
    this.judge = judge;
  }

  /** The SLOs' ids and names, in the order given; 422 naming the first that may not judge this remote's canary. */
  async named(remote: string, sloIds: readonly number[]): Promise<{ id: number; name: string }[]> {
    if (sloIds.length === 0) return [];
    if (!this.judge) throw new UnprocessableEntityException('slos: this hub does not measure SLOs');
    const found = new Map((await this.judge.describe(remote, sloIds)).map((slo) => [slo.id, slo]));
    return sloIds.map((id) => {
      const slo = found.get(id);
      if (!slo) throw new UnprocessableEntityException(`slos: no SLO has the id ${id}`);
      if (slo.problem) throw new UnprocessableEntityException(`slos: ${slo.problem}`);
      return { id, name: slo.name };
    });
  }

  /** The names of the SLOs a running canary names (those deleted since are left out). */
  async names(remote: string, sloIds: readonly number[]): Promise<{ id: number; name: string }[]> {
    if (sloIds.length === 0 || !this.judge) return [];
    const found = await this.judge.describe(remote, sloIds);
    return found.map(({ id, name }) => ({ id, name }));
  }

  async verdict(canary: CanaryUnderJudgement): Promise<SloVerdict | null> {
    return canary.sloIds.length > 0 && this.judge ? this.judge.verdict(canary) : null;
  }
}
