import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  canaryReleaseSchema,
  pinReleaseSchema,
  promoteReleaseSchema,
  RELEASE_PINS_COOKIE,
  releaseRemoteName,
  remoteLoadsSchema,
  uploadReleaseSchema,
  type UploadRelease,
} from '@cbh/contracts';
import { cookieValue, RequirePermission, SignedIn, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { ReleaseLoadsService } from './release-loads.service';
import { ReleasesService } from './releases.service';

/** A remote by its manifest name (mfe_dashboard) or its folder's (mfe-dashboard): the one the API knows. */
const remoteName = new ZodPipe(
  z
    .string()
    .regex(/^[a-z0-9_-]{1,64}$/, 'must be a remote name such as mfe_dashboard or mfe-dashboard')
    .transform(releaseRemoteName),
  'remote',
);
const versionIdParam = new ZodPipe(z.coerce.number().int('must be a version id').positive('must be a version id'), 'id');

/** Remote releases: who may ship a screen area to everyone is a system administrator. */
@Controller('releases')
@RequirePermission('system_admin')
export class ReleasesController {
  constructor(
    private readonly releases: ReleasesService,
    private readonly loadReports: ReleaseLoadsService,
  ) {}

  @Get()
  list() {
    return this.releases.releaseViews.list();
  }

  /** The contract check alone, for CI and `cbh release check`: nothing is kept. */
  @Post(':remote/check')
  @HttpCode(200)
  check(@Req() req: AppRequest, @Param('remote', remoteName) remote: string, @Body(new ZodPipe(uploadReleaseSchema)) body: UploadRelease) {
    return this.releases.check(req, remote, body);
  }

  @Post(':remote/versions')
  upload(@Req() req: AppRequest, @Param('remote', remoteName) remote: string, @Body(new ZodPipe(uploadReleaseSchema)) body: UploadRelease) {
    return this.releases.upload(req, remote, body);
  }

  /** Deletes a version that is neither live, previous nor canary. */
  @Delete(':remote/versions/:id')
  @HttpCode(204)
  async deleteVersion(@Req() req: AppRequest, @Param('remote', remoteName) remote: string, @Param('id', versionIdParam) id: number) {
    await this.releases.deleteVersion(req, remote, id);
  }

  @Post(':remote/promote')
  @HttpCode(200)
  promote(
    @Req() req: AppRequest,
    @Param('remote', remoteName) remote: string,
    @Body(new ZodPipe(promoteReleaseSchema)) { versionId }: z.infer<typeof promoteReleaseSchema>,
  ) {
    return this.releases.promote(req, remote, versionId);
  }

  /** A page's remote loads: any signed-in person's, counted per person for the versions they were given. */
  @Post('loads')
  @SignedIn()
  @HttpCode(204)
  async loads(@Req() req: AppRequest, @Body(new ZodPipe(remoteLoadsSchema)) { loads }: z.infer<typeof remoteLoadsSchema>) {
    const cookies = req.headers.cookie;
    await this.loadReports.record(req, cookieValue(cookies, RELEASE_PINS_COOKIE), loads, (remote) => this.releases.announce(remote));
  }

  @Post(':remote/canary')
  @HttpCode(200)
  canary(
    @Req() req: AppRequest,
    @Param('remote', remoteName) remote: string,
    @Body(new ZodPipe(canaryReleaseSchema)) { versionId, percent, slos }: z.infer<typeof canaryReleaseSchema>,
  ) {
    return this.releases.canary(req, remote, versionId, percent, slos);
  }

  @Post(':remote/canary/abort')
  @HttpCode(200)
  abortCanary(@Req() req: AppRequest, @Param('remote', remoteName) remote: string) {
    return this.releases.abortCanary(req, remote);
  }

  /** Pins a version for the caller's own browser (a sealed cookie), to preview it before anyone else gets it. */
  @Post(':remote/pin')
  @HttpCode(204)
  async pin(
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: FastifyReply,
    @Param('remote', remoteName) remote: string,
    @Body(new ZodPipe(pinReleaseSchema)) { versionId }: z.infer<typeof pinReleaseSchema>,
  ) {
    const pins = await this.releases.pin(req, remote, versionId, cookieValue(req.headers.cookie, RELEASE_PINS_COOKIE));
    const secure = req.protocol === 'https' ? '; Secure' : '';
    res.header('Set-Cookie', `${RELEASE_PINS_COOKIE}=${encodeURIComponent(pins)}; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax${secure}`);
  }

  @Post(':remote/rollback')
  @HttpCode(200)
  rollback(@Req() req: AppRequest, @Param('remote', remoteName) remote: string) {
    return this.releases.rollback(req, remote);
  }
}
