import { createHash, timingSafeEqual } from 'node:crypto';
import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { hasPermission } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { ACCESS_KEY, type Access } from './access.decorator';
import type { AppRequest } from './session-user';

export function isElevationAccount(config: AppConfig, user: { email: string; role: string } | undefined): boolean {
  return Boolean(
    user && config.ELEVATION_EMAIL && user.email.toLowerCase() === config.ELEVATION_EMAIL.toLowerCase() && user.role !== 'super_admin',
  );
}

/**
 * The server-side permission policy, applied to every HTTP route: each route declares who may call it, and a
 * route that declares nothing is refused.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger(AccessGuard.name);
  /** Each handler's rule, read from its metadata once. */
  private readonly rules = new WeakMap<object, Access | undefined>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private hasMetricsToken(header: string | undefined): boolean {
    const token = this.config.METRICS_TOKEN;
    if (!token || !header?.startsWith('Bearer ')) return false;
    const digest = (value: string) => createHash('sha256').update(value).digest();
    return timingSafeEqual(digest(header.slice(7)), digest(token));
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const handler = context.getHandler();
    let access = this.rules.get(handler);
    if (!this.rules.has(handler)) {
      access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS_KEY, [handler, context.getClass()]);
      this.rules.set(handler, access);
    }
    const request = context.switchToHttp().getRequest<AppRequest>();
    if (!access) {
      this.logger.error(`${request.method} ${request.url} declares no access rule; refused`);
      throw new ForbiddenException('This endpoint declares no access rule');
    }
    if (access.kind === 'public') return true;
    if (access.kind === 'metrics-scrape' && this.hasMetricsToken(request.headers.authorization)) return true;
    const user = request.user;
    if (!user) throw new UnauthorizedException('Not signed in');
    switch (access.kind) {
      case 'signed-in':
        return true;
      case 'permission':
        if (hasPermission(user, access.permission)) return true;
        throw new ForbiddenException(`Requires the ${access.permission} permission`);
      case 'metrics-scrape':
        if (hasPermission(user, 'metrics_view')) return true;
        throw new ForbiddenException('Requires the metrics_view permission or the metrics token');
      case 'elevation-account':
        if (isElevationAccount(this.config, user)) return true;
        throw new ForbiddenException('Only the designated admin account can elevate its privileges');
    }
  }
}
