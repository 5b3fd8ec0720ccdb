import { Controller, Get, Logger, HttpCode, HttpException, HttpStatus, NotFoundException, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { loginSchema } from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import { isFormPost, isOwnNavigation, JsonBody, Public, RealtimeBus, seeOther, SessionOnly, SignedIn } from '../../platform';
import { AuthService, OIDC_REFUSALS } from './auth.service';
import { loginPage } from './login-page';
import { SignInAttemptsRepository } from './sign-in-attempts.repository';
import { clientOf, KNOWN_ADDRESS_MS, signInKeys, signInRules } from './sign-in-limits';
import { linkPage } from './oidc-link-page';
import type { OidcAnswer } from './oidc-sign-in';
import { overHttps } from './oidc-state';
import { CLEARED_SESSION_COOKIE } from './session-store';
import { sessionKey } from './session-key';
import type { AppRequest, SessionUser } from './session-user';
import { signIn, signOut } from './session-reader.service';

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
  @SessionOnly('Signing in')
  async page(@Query('error') error: unknown, @Query('method') method: unknown, @Req() req: AppRequest, @Res() res: FastifyReply) {
    const message = typeof error === 'string' ? error.slice(0, 300) : undefined;
    res.header('Cache-Control', 'no-store');
    if (this.auth.oidc && method !== 'password' && !message) {
      // the request's checks leave in a sealed cookie: a visitor who never comes back leaves no session row behind
      const { location, cookie } = await this.auth.oidc.start(null, overHttps(req));
      return seeOther(res.header('Set-Cookie', cookie), location);
    }
    res.type('text/html; charset=utf-8').send(loginPage({ error: message, oidc: this.auth.oidcEnabled }));
  }

  /** Where the OpenID Connect provider sends the browser back: a sign-in, or the link a signed-in account asked for. */
  @Get('login/callback')
  @Public()
  @SessionOnly('Signing in')
  async callback(@Req() req: AppRequest, @Res() res: FastifyReply) {
    if (!this.auth.oidc) throw new NotFoundException('OpenID Connect sign-in is not configured');
    const answer = await this.auth.oidc.finish(req.url, req.headers.cookie);
    res.header('Set-Cookie', this.auth.oidc.clearCookie(overHttps(req))).header('Cache-Control', 'no-store');
    if (answer.linkFor) return this.finishLink(req, res, answer);
    if (!answer.ok) return seeOther(res, `/api/login?method=password&error=${encodeURIComponent(answer.message)}`);
    const outcome = await this.auth.accountForOidc(answer.identity);
    if (!outcome.ok) {
      const { issuer, subject, email } = answer.identity;
      await this.audit.record(req, {
        action: 'auth.sign-in-failed',
        targetType: 'user',
        actor: null,
        after: { method: 'oidc', issuer, subject, email, reason: outcome.message },
      });
      return seeOther(res, `/api/login?method=password&error=${encodeURIComponent(outcome.message)}`);
    }
    const user = outcome.user;
    await signIn(req, user);
    await this.auth.recordSignIn(user.id);
    await this.audit.record(req, { action: 'auth.sign-in', targetType: 'user', targetId: user.id, actor: user, after: { method: 'oidc' } });
    seeOther(res, '/');
  }

  /**
   * Linking an organization account to the signed-in account: the page names the account and leads to the provider;
   * the callback binds what the provider answers to this account only. Signed out, it asks for the password first;
   * a privileged account is told it signs in with its password only, and is not sent to the provider.
   */
  @Get('login/link')
  @Public()
  @SessionOnly('Linking an organization account')
  async linkPage(@Query('error') error: unknown, @Query('linked') linked: unknown, @Req() req: AppRequest, @Res() res: FastifyReply) {
    if (!this.auth.oidc) throw new NotFoundException('OpenID Connect sign-in is not configured');
    res.header('Cache-Control', 'no-store');
    const account = req.user;
    if (!account) return seeOther(res, `/api/login?method=password&error=${encodeURIComponent(OIDC_REFUSALS.signInFirst)}`);
    const refusal = this.auth.linkRefusal(account);
    const start = refusal ? null : await this.auth.oidc.start(account.id, overHttps(req));
    if (start) res.header('Set-Cookie', start.cookie);
    res.type('text/html; charset=utf-8').send(
      linkPage({
        email: account.email,
        providerUrl: start?.location ?? null,
        linked: await this.auth.linkedIdentities(account.id),
        error: refusal ?? (typeof error === 'string' ? error.slice(0, 300) : undefined),
        done: !refusal && linked === '1',
      }),
    );
  }

  /** The callback of a link: only the account that asked, still signed in, gets the organization account bound. */
  private async finishLink(req: AppRequest, res: FastifyReply, answer: OidcAnswer) {
    const back = (outcome: string) => seeOther(res, `/api/login/link?${outcome}`);
    const account = req.user;
    if (account?.id !== answer.linkFor)
      return seeOther(res, `/api/login?method=password&error=${encodeURIComponent(OIDC_REFUSALS.signInFirst)}`);
    if (!answer.ok) return back(`error=${encodeURIComponent(answer.message)}`);
    const result = await this.auth.linkIdentity(account, answer.identity);
    if (!result.ok) return back(`error=${encodeURIComponent(result.message)}`);
    if (result.linked) {
      const { issuer, subject } = answer.identity;
      await this.audit.record(req, {
        action: 'auth.identity-linked',
        targetType: 'user',
        targetId: account.id,
        after: { issuer, subject },
      });
    }
    back('linked=1');
  }

  /** JSON {email, password} → 200 with the account; a form post → 302 to / (or back to the form with the error). */
  @Post('login')
  @Public()
  @SessionOnly('Signing in')
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
    // counted over every replica (see sign-in-limits.ts)
    const keys = signInKeys(clientOf(req.ip), parsed.data.email);
    const knownAddress = await this.attempts.isKnownAddress(keys.clientAndAccount, KNOWN_ADDRESS_MS);
    const admission = await this.attempts.admit(signInRules(keys, knownAddress));
    if (!admission.admitted) {
      const wait = admission.retryAfterMs;
      res.header('Retry-After', Math.ceil(wait / 1000));
      return fail(HttpStatus.TOO_MANY_REQUESTS, `Too many sign-in attempts. Try again in ${Math.ceil(wait / 60_000)} minute(s).`);
    }
    req.body = parsed.data;

    const outcome = await new Promise<{ user?: SessionUser; message?: string; accountId?: string }>((resolve, reject) => {
      this.auth.passport!.authenticate(
        'local',
        { session: false },
        (error: unknown, user: SessionUser | false, info?: { message?: string; accountId?: string }) =>
          error ? reject(error) : resolve(user ? { user } : { message: info?.message, accountId: info?.accountId }),
      )(req, res, reject);
    });
    if (!outcome.user) {
      // an account's failures are audited (the limits bound them per account); guesses at e-mails no account has are
      // only logged, so strangers spraying addresses from many clients cannot grow the audit trail
      if (outcome.accountId) {
        await this.audit.record(req, {
          action: 'auth.sign-in-failed',
          targetType: 'user',
          targetId: outcome.accountId,
          actor: null,
          after: { email: parsed.data.email },
        });
      } else this.logger.log(`failed sign-in for an e-mail no account has (request ${String(req.id)})`);
      return fail(401, outcome.message ?? 'Invalid e-mail or password');
    }
    const user = outcome.user;
    // passport regenerates the session id on logIn, so a session fixed before sign-in is worthless.
    await signIn(req, user);
    // a success is no failure: its own rows go, and this client's earlier failures for the account with them; the
    // account's failures from elsewhere stay, but no longer hold sign-ins from this address back
    await this.attempts.forget(admission.attempt);
    await this.attempts.reset(keys.clientAndAccount);
    await this.attempts.rememberAddress(keys.clientAndAccount);
    await this.auth.recordSignIn(user.id);
    await this.audit.record(req, { action: 'auth.sign-in', targetType: 'user', targetId: user.id, actor: user });
    if (isForm) return seeOther(res, '/');
    return this.auth.toAuthUser(user);
  }

  /**
   * Sign-out by navigation (the spec's link). A navigation from another site would let any page end a visitor's
   * session, so it gets a page with a Sign out button instead, which posts back from this origin.
   */
  @Get('logout')
  @Public()
  @SessionOnly('Signing out')
  async logout(@Req() req: AppRequest, @Res() res: FastifyReply) {
    if (!isOwnNavigation(req)) {
      return res
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send(loginPage({ title: 'Sign out', action: '/api/logout', fields: 'sign-out' }));
    }
    await this.endSession(req, res);
  }

  /** The sign-out page's button; the cross-origin check has refused it unless it was posted from this site. */
  @Post('logout')
  @Public()
  @SessionOnly('Signing out')
  async logoutConfirmed(@Req() req: AppRequest, @Res() res: FastifyReply) {
    await this.endSession(req, res);
  }

  private async endSession(req: AppRequest, res: FastifyReply) {
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
    res.header('Set-Cookie', CLEARED_SESSION_COOKIE);
    seeOther(res, '/');
  }

  @Get('auth/user')
  @SignedIn()
  @JsonBody()
  user(@Req() req: AppRequest): Buffer {
    return this.auth.authUserBody(req.user!);
  }
}
