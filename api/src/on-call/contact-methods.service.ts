import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CONTACT_METHODS_PER_PERSON, type ContactMethodView, type CreateContactMethod } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig, judgeTargetUrl, type SecretBox } from '../platform';
import { AuditService, UserEntity, type AppRequest } from '../identity';
import { ContactMethodEntity } from './entities/contact-method.entity';
import { contactMethodBox } from './on-call-audience';

const LABELS = { slack: 'Slack', discord: 'Discord', webhook: 'Webhook' } as const;

/**
 * Each person's contact methods: their e-mail (always, once the account is active) and up to five personal channels
 * an escalation step reaches them on. A URL is judged by the outbound guard before it is kept, kept sealed, and never
 * shown again (only its host).
 */
@Injectable()
export class ContactMethodsService {
  private readonly box: SecretBox;

  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.box = contactMethodBox(config);
  }

  async list(userId: string): Promise<ContactMethodView[]> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: userId });
    const methods = await this.dataSource
      .getRepository(ContactMethodEntity)
      .find({ where: { userId }, order: { createdAt: 'ASC' }, take: CONTACT_METHODS_PER_PERSON });
    const email: ContactMethodView[] = user ? [{ id: 'email', type: 'email', label: 'E-mail', target: user.email, createdAt: null }] : [];
    return [...email, ...methods.map(view)];
  }

  async add(req: AppRequest, body: CreateContactMethod): Promise<ContactMethodView> {
    const problem = await judgeTargetUrl(body.url, this.config.ALLOW_PRIVATE_TARGETS);
    if (problem) throw new BadRequestException(`url: ${problem}`);
    const userId = req.user!.id;
    return this.dataSource.transaction(async (manager) => {
      const repository = manager.getRepository(ContactMethodEntity);
      // counted under a lock on the person's row: two requests at once cannot both pass the limit
      await manager.getRepository(UserEntity).findOne({ where: { id: userId }, lock: { mode: 'pessimistic_write' } });
      if ((await repository.countBy({ userId })) >= CONTACT_METHODS_PER_PERSON)
        throw new ConflictException(`At most ${CONTACT_METHODS_PER_PERSON} contact methods besides your e-mail`);
      const saved = await repository.save(
        repository.create({
          userId,
          type: body.type,
          label: body.label || LABELS[body.type],
          urlSealed: this.box.seal(body.url),
          urlHost: new URL(body.url).host,
        }),
      );
      const after = view(saved);
      await this.audit.record(req, { action: 'contact-method.create', targetType: 'contact_method', targetId: saved.id, after }, manager);
      return after;
    });
  }

  async remove(req: AppRequest, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await manager.getRepository(ContactMethodEntity).findOneBy({ id, userId: req.user!.id });
      if (!row) throw new NotFoundException(`No contact method with id ${id}`);
      await manager.getRepository(ContactMethodEntity).delete({ id });
      await this.audit.record(
        req,
        { action: 'contact-method.delete', targetType: 'contact_method', targetId: id, before: view(row) },
        manager,
      );
    });
  }
}

function view(row: ContactMethodEntity): ContactMethodView {
  return { id: row.id, type: row.type, label: row.label, target: row.urlHost, createdAt: row.createdAt.toISOString() };
}
