import { BadRequestException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NotificationRuleEntity } from './entities/notification-rule.entity';

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Writes a rule whose escalation policy the database checks: the policies live in the on-call context above this
 * one, so the foreign key, not an import, says whether the id names one (422 when it does not).
 */
export async function withKnownPolicy<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const { code, constraint } = error as { code?: string; constraint?: string };
    if (code === FOREIGN_KEY_VIOLATION && constraint?.includes('escalation_policy')) {
      throw new BadRequestException('escalationPolicyId: no escalation policy with this id');
    }
    throw error;
  }
}

/** A patch may leave a rule with neither channels nor a policy; such a rule would tell no one. */
export function refuseSilentRule(channels: string[], escalationPolicyId: string | null) {
  if (channels.length === 0 && !escalationPolicyId) {
    throw new BadRequestException('channelIds: name at least one channel or an escalation policy');
  }
}

/** The names of the rules that open alert groups under a policy: a policy in use is not deleted by hand. */
export async function rulesNamingPolicy(manager: EntityManager, policyId: string): Promise<string[]> {
  const rules = await manager
    .getRepository(NotificationRuleEntity)
    .find({ where: { escalationPolicyId: policyId }, select: { name: true }, take: 10 });
  return rules.map((rule) => rule.name);
}
