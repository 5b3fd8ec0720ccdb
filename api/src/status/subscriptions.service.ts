import { HttpException, HttpStatus, Inject, Injectable, NotFoundException, type OnModuleInit } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { STATUS_PAGE_LIMITS, type SubscriberView, type SubscriptionRequest } from '@cbh/contracts';
import { AuditService, type AppRequest } from '../identity';
import { APP_CONFIG, MailService, type AppConfig } from '../platform';
import { StatusSubscriptionEntity } from './entities/subscription.entity';
import { StatusPageEntity } from './entities/status-page.entity';
import { StatusComponentEntity } from './entities/status-component.entity';
import { StatusRepository } from './status.repository';
import { SubscriptionLinks, CONFIRM_HOURS } from './subscription-links';

/** Requests one address may make in an hour, one client (an IPv4 address, an IPv6 /64), and all to one page. */
export const SUBSCRIBE_PER_ADDRESS_PER_HOUR = 3;
export const SUBSCRIBE_PER_CLIENT_PER_HOUR = 20;
export const SUBSCRIBE_PER_PAGE_PER_HOUR = 500;

/** A client as the limit counts it: an IPv6 address by its /64, which one host usually holds whole. */
export function clientKey(ip: string): string {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (!address.includes(':')) return address;
  const [head = ''] = address.split('::');
  const groups = head.split(':').filter(Boolean);
  const tail = address.includes('::') ? address.split('::')[1]!.split(':').filter(Boolean) : [];
  const full = [...groups, ...Array(Math.max(0, 8 - groups.length - tail.length)).fill('0'), ...tail];
  return `${full.slice(0, 4).join(':')}::/64`;
}
/** What every request answers, whoever the address belongs to: nothing tells whether it was subscribed already. */
export const SUBSCRIBE_ANSWER = 'If this address can receive mail, a link to confirm the subscription is on its way.';

/**
 * E-mail subscriptions to a page's incidents, with double opt-in: a request mails a confirmation link, and only a
 * confirmed address is mailed incidents (through the notification outbox: see status-audience.ts). Every request
 * gets the same answer, so the form cannot be used to learn who subscribed; requests are limited per address and
 * per client, counted in the database so every replica counts alike.
 */
@Injectable()
export class SubscriptionsService implements OnModuleInit {
  links!: SubscriptionLinks;

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: StatusRepository,
    private readonly mail: MailService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit() {
    this.links = new SubscriptionLinks(this.config.SESSION_SECRET);
  }

  async request(page: StatusPageEntity, body: SubscriptionRequest, client: string): Promise<string> {
    const email = body.email.trim().toLowerCase();
    const [byAddress, byClient, byPage] = [
      await this.repository.countRequest([`address:${email}`], 3600),
      await this.repository.countRequest([`client:${clientKey(client)}`], 3600),
      await this.repository.countRequest([`page:${page.id}`], 3600),
    ];
    if (byAddress > SUBSCRIBE_PER_ADDRESS_PER_HOUR || byClient > SUBSCRIBE_PER_CLIENT_PER_HOUR || byPage > SUBSCRIBE_PER_PAGE_PER_HOUR) {
      throw new HttpException(
        { message: 'Too many subscription requests: try again in an hour', retryAfterSeconds: 3600 },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const known = new Set(
      (await this.dataSource.getRepository(StatusComponentEntity).find({ where: { pageId: page.id }, select: { id: true } })).map(
        (c) => c.id,
      ),
    );
    const components = (body.components ?? []).filter((id) => known.has(id));
    const repository = this.dataSource.getRepository(StatusSubscriptionEntity);
    await repository.createQueryBuilder().insert().values({ pageId: page.id, email, components }).orIgnore().execute();
    const subscription = (await repository.findOneBy({ pageId: page.id, email }))!;
    const base = `${this.config.PUBLIC_URL}/status/${page.slug}`;
    if (subscription.confirmedAt) {
      const unsubscribe = `${base}/unsubscribe?code=${this.links.sign('unsubscribe', subscription)}`;
      await this.mail.send({
        to: email,
        subject: `You are subscribed to ${page.title}`,
        text: `This address already gets ${page.title}'s incidents and maintenance.\n\nTo stop them: ${unsubscribe}\n`,
        secrets: [unsubscribe],
      });
    } else {
      const confirm = `${base}/confirm?code=${this.links.sign('confirm', subscription)}`;
      await this.mail.send({
        to: email,
        subject: `Confirm your subscription to ${page.title}`,
        text:
          `Someone, probably you, asked to get ${page.title}'s incidents and maintenance at this address.\n\n` +
          `Confirm within ${CONFIRM_HOURS} hours: ${confirm}\n\nIf it was not you, ignore this mail: nothing will be sent.\n`,
        secrets: [confirm],
      });
    }
    return SUBSCRIBE_ANSWER;
  }

  /** Confirms the subscription a link names; false for a link that does not verify (expired, altered, or gone). */
  async confirm(page: StatusPageEntity, token: string): Promise<boolean> {
    const subscription = await this.byToken(page, 'confirm', token);
    if (!subscription) return false;
    if (!subscription.confirmedAt)
      await this.dataSource.getRepository(StatusSubscriptionEntity).update({ id: subscription.id }, { confirmedAt: new Date() });
    return true;
  }

  /** Ends the subscription a link names; true also when it had ended already (a second click, a mail client's retry). */
  async unsubscribe(page: StatusPageEntity, token: string): Promise<boolean> {
    const parsed = this.links.idOf(token);
    if (!parsed) return false;
    const subscription = await this.byToken(page, 'unsubscribe', token);
    if (subscription) await this.dataSource.getRepository(StatusSubscriptionEntity).delete({ id: subscription.id });
    // judged on this page's subscriptions only: another page's ids are not told apart from ids that never existed
    return (
      subscription !== null || !(await this.dataSource.getRepository(StatusSubscriptionEntity).existsBy({ id: parsed.id, pageId: page.id }))
    );
  }

  async byToken(page: StatusPageEntity, purpose: 'confirm' | 'unsubscribe', token: string) {
    const parsed = this.links.idOf(token);
    if (!parsed) return null;
    const subscription = await this.dataSource.getRepository(StatusSubscriptionEntity).findOneBy({ id: parsed.id, pageId: page.id });
    return subscription && this.links.verify(purpose, token, subscription) ? subscription : null;
  }

  async list(pageId: number): Promise<SubscriberView[]> {
    const rows = await this.dataSource
      .getRepository(StatusSubscriptionEntity)
      .find({ where: { pageId }, order: { createdAt: 'DESC' }, take: STATUS_PAGE_LIMITS.subscribersPerPage });
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      components: row.components,
      confirmed: row.confirmedAt !== null,
      createdAt: row.createdAt.toISOString(),
    }));
  }

  async remove(req: AppRequest, pageId: number, id: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await manager.getRepository(StatusSubscriptionEntity).findOneBy({ id, pageId });
      if (!row) throw new NotFoundException(`No subscriber ${id} on status page ${pageId}`);
      await manager.getRepository(StatusSubscriptionEntity).delete({ id });
      await this.audit.record(
        req,
        { action: 'status-subscriber.delete', targetType: 'status_subscription', targetId: String(id), before: { email: row.email } },
        manager,
      );
    });
  }

  /** The confirmed subscribers an incident reaches: those of every component, and those of one it names. */
  async recipients(pageId: number, componentIds: readonly number[], manager = this.dataSource.manager) {
    const rows = await manager
      .getRepository(StatusSubscriptionEntity)
      .find({ where: { pageId }, select: { id: true, components: true, confirmedAt: true } });
    return rows.filter((row) => row.confirmedAt && (row.components.length === 0 || row.components.some((id) => componentIds.includes(id))));
  }

  /** The ids of a page's components by their names (a maintenance event names them so). */
  async componentIdsNamed(pageId: number, names: readonly string[], manager = this.dataSource.manager): Promise<number[]> {
    const rows = await manager.getRepository(StatusComponentEntity).find({ where: { pageId }, select: { id: true, name: true } });
    return rows.filter((row) => names.includes(row.name)).map((row) => row.id);
  }

  /** A page's address and whether it is public now. */
  pageOf(pageId: number): Promise<{ slug: string; public: boolean } | null> {
    return this.dataSource.getRepository(StatusPageEntity).findOne({ where: { id: pageId }, select: { slug: true, public: true } });
  }

  find(ids: readonly number[]) {
    return this.dataSource.getRepository(StatusSubscriptionEntity).findBy({ id: In([...ids]) });
  }
}
