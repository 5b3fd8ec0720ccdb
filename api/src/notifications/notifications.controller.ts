import {
  Body,
  ConflictException,
  Controller,
  Delete,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Patch,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import type { z } from 'zod';
import {
  createChannelSchema,
  createRuleSchema,
  createWindowSchema,
  deliveryQuerySchema,
  isBreakerEvent,
  isDomainEvent,
  notificationIdSchema,
  publicName,
  updateChannelSchema,
  updateRuleSchema,
  updateWindowSchema,
  type BreakerEventData,
  type DeliveryPage,
  type DeliveryView,
} from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { type DeliveryRow, NotificationsRepository } from './notifications.repository';
import { NotificationOutbox } from './notification-outbox.service';
import { NotificationSettingsService, readsDomainEvents } from './notification-settings.service';

const id = new ZodPipe(notificationIdSchema, 'id');

/**
 * Notifications are an operator's setup for the breakers: circuit_breaker_admin manages channels, rules and
 * windows and reads the log. Rules that route domain alerts also need domain_management (the service judges it),
 * and the log shows domain events only to those who hold it.
 */
@Controller('notification-channels')
@RequirePermission('circuit_breaker_admin')
export class NotificationChannelsController {
  constructor(
    private readonly settings: NotificationSettingsService,
    private readonly outbox: NotificationOutbox,
  ) {}

  @Get()
  list(@Req() req: AppRequest) {
    return this.settings.listChannels(req);
  }

  @Get(':id')
  one(@Req() req: AppRequest, @Param('id', id) channelId: string) {
    return this.settings.channel(req, channelId);
  }

  @Post()
  create(@Req() req: AppRequest, @Body(new ZodPipe(createChannelSchema)) body: z.infer<typeof createChannelSchema>) {
    return this.settings.createChannel(req, body);
  }

  @Patch(':id')
  update(
    @Req() req: AppRequest,
    @Param('id', id) channelId: string,
    @Body(new ZodPipe(updateChannelSchema)) body: z.infer<typeof updateChannelSchema>,
  ) {
    return this.settings.updateChannel(req, channelId, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Req() req: AppRequest, @Param('id', id) channelId: string) {
    await this.settings.deleteChannel(req, channelId);
  }

  /** Sends a `notification.test` now and answers what the receiver said (or why it could not be reached). */
  @Post(':id/test')
  @HttpCode(200)
  async test(@Req() req: AppRequest, @Param('id', id) channelId: string) {
    const channel = await this.settings.channel(req, channelId);
    return this.outbox.sendTest(channel, publicName(req.user!));
  }
}

@Controller('notification-rules')
@RequirePermission('circuit_breaker_admin')
export class NotificationRulesController {
  constructor(private readonly settings: NotificationSettingsService) {}

  @Get()
  list(@Req() req: AppRequest) {
    return this.settings.listRules(req);
  }

  @Post()
  create(@Req() req: AppRequest, @Body(new ZodPipe(createRuleSchema)) body: z.infer<typeof createRuleSchema>) {
    return this.settings.createRule(req, body);
  }

  @Patch(':id')
  update(
    @Req() req: AppRequest,
    @Param('id', id) ruleId: string,
    @Body(new ZodPipe(updateRuleSchema)) body: z.infer<typeof updateRuleSchema>,
  ) {
    return this.settings.updateRule(req, ruleId, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Req() req: AppRequest, @Param('id', id) ruleId: string) {
    await this.settings.deleteRule(req, ruleId);
  }
}

@Controller('maintenance-windows')
@RequirePermission('circuit_breaker_admin')
export class MaintenanceWindowsController {
  constructor(private readonly settings: NotificationSettingsService) {}

  @Get()
  list() {
    return this.settings.listWindows();
  }

  @Post()
  create(@Req() req: AppRequest, @Body(new ZodPipe(createWindowSchema)) body: z.infer<typeof createWindowSchema>) {
    return this.settings.createWindow(req, body);
  }

  @Patch(':id')
  update(
    @Req() req: AppRequest,
    @Param('id', id) windowId: string,
    @Body(new ZodPipe(updateWindowSchema)) body: z.infer<typeof updateWindowSchema>,
  ) {
    return this.settings.updateWindow(req, windowId, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Req() req: AppRequest, @Param('id', id) windowId: string) {
    await this.settings.deleteWindow(req, windowId);
  }
}

@Controller('notification-deliveries')
@RequirePermission('circuit_breaker_admin')
export class NotificationDeliveriesController {
  constructor(
    private readonly repository: NotificationsRepository,
    private readonly outbox: NotificationOutbox,
  ) {}

  /** The delivery log, newest first, a page at a time (`nextBefore` is the next page's cursor). */
  @Get()
  async list(
    @Req() req: AppRequest,
    @Query(new ZodPipe(deliveryQuerySchema)) query: z.infer<typeof deliveryQuerySchema>,
  ): Promise<DeliveryPage> {
    const { rows, more } = await this.repository.page(query, readsDomainEvents(req));
    return { items: rows.map(deliveryView), nextBefore: more ? rows[rows.length - 1]!.seq : null };
  }

  /** A failed delivery is tried once more, now. */
  @Post(':id/retry')
  @HttpCode(200)
  async retry(@Req() req: AppRequest, @Param('id', id) deliveryId: string): Promise<DeliveryView> {
    const found = await this.repository.delivery(deliveryId);
    if (!found || (isDomainEvent(found.eventType) && !readsDomainEvents(req))) {
      throw new NotFoundException(`No notification delivery with id ${deliveryId}`);
    }
    if (!(await this.repository.retryFailed(deliveryId)))
      throw new ConflictException(`Only a failed delivery can be retried; this one is ${found.status}`);
    await this.outbox.deliveryDue();
    return deliveryView((await this.repository.delivery(deliveryId))!);
  }
}

/** The breaker a breaker event's payload names; null for other events, and for a payload without one rather than a failed page. */
function breakerIdOf(row: DeliveryRow): number | null {
  if (!isBreakerEvent(row.eventType)) return null;
  const id = (row.payload as Partial<BreakerEventData>).breaker?.id;
  return typeof id === 'number' ? id : null;
}

export function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    event: row.eventType,
    subject: row.subject,
    breakerId: breakerIdOf(row),
    // the log lists channels' deliveries only (joined on the channel), never an audience's
    channelId: row.channelId!,
    channelName: row.channelName,
    ruleId: row.ruleId,
    ruleName: row.ruleName,
    status: row.status,
    attempts: row.attempts,
    statusCode: row.statusCode,
    durationMs: row.durationMs,
    lastError: row.lastError,
    occurredAt: row.occurredAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}
