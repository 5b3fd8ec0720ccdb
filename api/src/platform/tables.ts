import { OutboxEmailEntity } from './mail/entities/outbox-email.entity';
import { ApiInstanceEntity } from './replicas/entities/api-instance.entity';

/** The tables this context owns, as TypeORM entities: the composition root hands them to the DataSource. */
export const PLATFORM_ENTITIES = [OutboxEmailEntity, ApiInstanceEntity];
