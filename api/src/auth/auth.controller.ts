import { Controller, Get, Logger, HttpCode, HttpException, HttpStatus, NotFoundException, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import passport from 'passport';
import { loginSchema } from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import { Public, SignedIn } from './access.decorator';
import { AuthService } from './auth.service';
import { loginPage } from './login-page';
import { SignInAttemptsRepository } from './sign-in-attempts.repository';
import { OIDC_STRATEGY } from './oidc.strategy';
import { SESSION_COOKIE } from './session-store';
import { sessionKey } from './session-key';
import { RealtimeBus } from '../bus/realtime-bus.service';
import type { AppRequest, SessionRequest, SessionUser } from './session-user';
import { signIn, signOut } from './session-reader.service';
import { isFormPost, seeOther } from '../common/http';

/** Ten failed sign-ins per client and e-mail, fifty per client, in 15 minutes, counted over every replica. */
const LOGIN_WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_ACCOUNT = 10;
const MAX_FAILURES_PER_CLIENT = 50;

@Controller()
export class AuthController {
  private readonly logger = new Logger(AuthController.name);
  constructor(
    private readonly auth: AuthService,
    private readonly audit: AuditService,
    private readonly bus: RealtimeBus,
    private readonly attempts: SignInAttemptsRepository,
  ) {}

  /** The sign-in page, or straight to the OpenID Connect provider when one is configured (?method=password keeps the form). */
  @Get('login')
  @Public()
  page(@Query('error') error: unknown, @Query('method') method: unknown, @Req() req: AppRequest, @Res() res: FastifyReply) {
    const message = typeof error === 'string' ? error.slice(0, 200) : undefined;
    if (this.auth.oidcEnabled && method !== 'password' && !message) {
      // passport answers the raw response itself (the redirect to the provider)
      res.hijack();
      return passport.authenticate(OIDC_STRATEGY)(req.raw as SessionRequest, res.raw, (failure: unknown) => {
        this.logger.warn(`OpenID Connect sign-in could not start: ${String(failure)}`);
        res.raw.writeHead(502).end('The identity provider could not be reached');
      });
    }
    res
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(loginPage({ error: message, oidc: this.auth.oidcEnabled }));
  }

  /** Where the OpenID Connect provider sends the browser back. */
  @Get('login/callback')
  @Public()
  async callback(@Req() req: AppRequest, @Res() res: FastifyReply) {
    if (!this.auth.oidcEnabled) throw new NotFoundException('OpenID Connect sign-in is not configured');
    const outcome = await new Promise<{ user?: SessionUser; message?: string }>((resolve, reject) => {
      passport.authenticate(OIDC_STRATEGY, (error: Error | null, user: SessionUser | false, info?: { message?: string }) =>
        resolve(user ? { user } : { message: error?.message ?? info?.message ?? 'The identity provider refused the sign-in' }),
      )(req.raw, res.raw, reject);
    });
    if (!outcome.user) return seeOther(res, `/api/login?method=password&error=${encodeURIComponent(outcome.message!)}`);
    const user = outcome.user;
    await signIn(req, user);
    await this.auth.recordSignIn(user.id);
    await this.audit.record(req, { action: 'auth.sign-in', targetType: 'user', targetId: user.id, actor: user, after: { method: 'oidc' } });
    seeOther(res, '/');
  }

  /** JSON {email, password} → 200 with the account; a form post → 302 to / (or back to the form with the error). */
  @Post('login')
  @Public()
  @HttpCode(200)
  async login(@Req() req: AppRequest, @Res({ passthrough: true }) res: FastifyReply) {
    const isForm = isFormPost(req);
    const fail = (status: number, message: string) => {
      if (isForm) return seeOther(res, `/api/login?error=${encodeURIComponent(message)}`);
      throw new HttpException(message, status);
    };

    const parsed = loginSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      return fail(400, parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
    }
    const client = req.ip ?? 'unknown';
    const accountKey = `${client}|${parsed.data.email}`;
    const attempt = await this.attempts.record([accountKey, client], LOGIN_WINDOW_MS);
    const wait = await this.attempts.retryAfter(
      [
        { key: accountKey, max: MAX_FAILURES_PER_ACCOUNT },
        { key: client, max: MAX_FAILURES_PER_CLIENT },
      ],
      LOGIN_WINDOW_MS,
    );
    if (wait > 0) {
      res.header('Retry-After', Math.ceil(wait / 1000));
      return fail(HttpStatus.TOO_MANY_REQUESTS, `Too many sign-in attempts. Try again in ${Math.ceil(wait / 60_000)} minute(s).`);
    }
    req.body = parsed.data;

    const outcome = await new Promise<{ user?: SessionUser; message?: string }>((resolve, reject) => {
      passport.authenticate('local', { session: false }, (error: unknown, user: SessionUser | false, info?: { message?: string }) =>
        error ? reject(error) : resolve(user ? { user } : { message: info?.message }),
      )(req, res, reject);
    });
    if (!outcome.user) {
      await this.audit.record(req, { action: 'auth.sign-in-failed', targetType: 'user', actor: null, after: { email: parsed.data.email } });
      return fail(401, outcome.message ?? 'Invalid e-mail or password');
    }
    const user = outcome.user;
    // passport regenerates the session id on logIn, so a session fixed before sign-in is worthless.
    await signIn(req, user);
    // a success is no failure: its own rows go, and the account's earlier failures with them
    await this.attempts.forget(attempt);
    await this.attempts.reset(accountKey);
    await this.auth.recordSignIn(user.id);
    await this.audit.record(req, { action: 'auth.sign-in', targetType: 'user', targetId: user.id, actor: user });
    if (isForm) return seeOther(res, '/');
    return this.auth.toAuthUser(user);
  }

  @Get('logout')
  @Public()
  async logout(@Req() req: AppRequest, @Res() res: FastifyReply) {
    const user = req.user;
    // only a signed-in session has sockets to close: a visitor without one tells nobody anything
    const ended = user && req.sessionID ? sessionKey(req.sessionID) : null;
    await signOut(req);
    // the session's live sockets close on every replica, not only its HTTP requests
    if (ended) {
      await this.bus.publishInternal('session-ended', ended).catch((error: Error) => {
        // the other replicas find out at their next check of the sessions table (within a minute)
        this.logger.warn(`sign-out not announced: ${error.message}`);
      });
    }
    if (user) await this.audit.record(req, { action: 'auth.sign-out', targetType: 'user', targetId: user.id, actor: user });
    res.header('Set-Cookie', `${SESSION_COOKIE}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`);
    seeOther(res, '/');
  }

  @Get('auth/user')
  @SignedIn()
  user(@Req() req: AppRequest) {
    return this.auth.toAuthUser(req.user!);
  }
}
