import { createHash, timingSafeEqual } from 'node:crypto';
import {
  BadRequestException,
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { hasPermission, serviceAccountNameOf } from '@cbh/contracts';
import { type Access, ACCESS_KEY, APP_CONFIG, type AppConfig, bearerOf, SESSION_ONLY_KEY } from '../../platform';
import { TokenAuthenticator } from '../tokens/token-authenticator.service';
import type { AppRequest } from './session-user';

/** Query parameters a client might put a token in: refused, since URLs end up in logs, history and Referer headers. */
const TOKEN_QUERY = /[?&](access_token|token)=/i;

export function tokenInQuery(url: string): boolean {
  const query = url.indexOf('?');
  return query >= 0 && TOKEN_QUERY.test(url.slice(query));
}

export const TOKEN_IN_URL_MESSAGE =
  'Access tokens are never accepted in the URL (they would be kept in logs and browser history): send Authorization: Bearer <token>';
export const TOKEN_AND_COOKIE_MESSAGE = 'Send either an access token or a session cookie, not both: a token request never uses the session';

/** What a route declares: who may call it, and whether it needs a person's session (SessionOnly's wording). */
interface Rule {
  access: Access | undefined;
  sessionOnly: string | undefined;
}

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
  private readonly rules = new WeakMap<object, Rule>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: TokenAuthenticator,
  ) {}

  private hasMetricsToken(header: string | undefined): boolean {
    const token = this.config.METRICS_TOKEN;
    if (!token || !header?.startsWith('Bearer ')) return false;
    const digest = (value: string) => createHash('sha256').update(value).digest();
    return timingSafeEqual(digest(header.slice(7)), digest(token));
  }

  private ruleOf(context: ExecutionContext): Rule {
    const handler = context.getHandler();
    let rule = this.rules.get(handler);
    if (!rule) {
      const targets = [handler, context.getClass()];
      rule = {
        access: this.reflector.getAllAndOverride<Access | undefined>(ACCESS_KEY, targets),
        sessionOnly: this.reflector.getAllAndOverride<string | undefined>(SESSION_ONLY_KEY, targets),
      };
      this.rules.set(handler, rule);
    }
    return rule;
  }

  /** Synchronous unless the request carries a token: a session's read costs no promise of its own here. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const rule = this.ruleOf(context);
    const request = context.switchToHttp().getRequest<AppRequest>();
    if (!rule.access) {
      this.logger.error(`${request.method} ${request.url} declares no access rule; refused`);
      throw new ForbiddenException('This endpoint declares no access rule');
    }
    if (tokenInQuery(request.url)) throw new BadRequestException(TOKEN_IN_URL_MESSAGE);
    const bearer = bearerOf(request.headers.authorization);
    return bearer === undefined
      ? this.allows(rule.access, request)
      : this.allowsToken(context, request, bearer, rule.access, rule.sessionOnly);
  }

  private async allowsToken(
    context: ExecutionContext,
    request: AppRequest,
    bearer: string,
    access: Access,
    sessionOnly: string | undefined,
  ): Promise<boolean> {
    // the session middleware left a bearer request alone; a cookie beside a token would leave two accounts to choose from
    if (request.headers.cookie !== undefined) throw new BadRequestException(TOKEN_AND_COOKIE_MESSAGE);
    if (access.kind === 'metrics-scrape' && this.hasMetricsToken(request.headers.authorization)) return true;
    const found = await this.tokens.authenticate(bearer, request.ip ?? null);
    request.user = found.user;
    request.apiToken = found.token;
    if (found.retryAfter > 0) throw this.tokens.rateLimited(found.retryAfter);
    if (sessionOnly) throw new ForbiddenException(`${sessionOnly} needs a person's session; an access token cannot do it`);
    return this.allows(access, request);
  }

  /** Whether the request's account (from its session or its token) may call a route declaring `access`. */
  private allows(access: Access, request: AppRequest): boolean {
    if (access.kind === 'public') return true;
    const user = request.user;
    if (!user) throw new UnauthorizedException('Not signed in');
    switch (access.kind) {
      case 'signed-in':
        return true;
      case 'permission':
        if (hasPermission(user, access.permission)) return true;
        throw new ForbiddenException(`Requires the ${access.permission} permission`);
      case 'any-permission':
        if (access.permissions.some((permission) => hasPermission(user, permission))) return true;
        throw new ForbiddenException(`Requires the ${access.permissions.join(' or ')} permission`);
      case 'super-admin':
        if (user.role === 'super_admin') return true;
        throw new ForbiddenException('Only a super admin may do this');
      case 'metrics-scrape':
        if (hasPermission(user, 'metrics_view')) return true;
        throw new ForbiddenException('Requires the metrics_view permission or the metrics token');
      case 'service-agent':
        if (request.apiToken && serviceAccountNameOf(user.email) !== null) return true;
        throw new ForbiddenException("Only a service account's access token may report breakers");
      case 'elevation-account':
        if (isElevationAccount(this.config, user)) return true;
        throw new ForbiddenException('Only the designated admin account can elevate its privileges');
    }
  }
}
