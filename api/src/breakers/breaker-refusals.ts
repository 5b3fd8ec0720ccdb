import { ConflictException } from '@nestjs/common';
import { readOnlyBreakerMessage } from '@cbh/contracts';
import type { BreakerConfigEntity } from './entities/breaker-config.entity';

/** A scraped breaker takes no control: the hub cannot push to a scraped service. */
export function refuseScraped(config: BreakerConfigEntity): ConflictException | null {
  return config.source === 'scrape' ? new ConflictException(readOnlyBreakerMessage(config.name, config.service ?? '')) : null;
}

/** What a load test running through a breaker forbids, refused naming its session. */
export function loadTestConflict(config: BreakerConfigEntity, sessionId: number, doing: string): ConflictException {
  return new ConflictException(`Circuit breaker ${config.name} has a load test running (session ${sessionId}); stop it before ${doing}`);
}
