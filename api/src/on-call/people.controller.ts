import { Controller, Get } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ON_CALL_PEOPLE_LIMIT, type OnCallPerson } from '@cbh/contracts';
import { RequireAnyPermission } from '../platform';
import { UserEntity } from '../identity';
import { personOf } from './schedules.service';

/**
 * The people a schedule or a policy may name, for those who keep them and act on alerts: active persons (no service
 * accounts), e-mail and name only — not the user list, which needs user_management.
 */
@Controller('on-call/people')
export class OnCallPeopleController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  @RequireAnyPermission('circuit_breaker_admin', 'circuit_breaker_operate')
  async list(): Promise<OnCallPerson[]> {
    const users = await this.dataSource.getRepository(UserEntity).find({
      where: { isActive: true, kind: 'person' },
      select: { id: true, email: true, firstName: true, lastName: true },
      order: { email: 'ASC' },
      take: ON_CALL_PEOPLE_LIMIT,
    });
    return users.map(personOf);
  }
}
