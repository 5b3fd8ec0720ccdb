import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { z } from 'zod';
import { promoteReleaseSchema, uploadReleaseSchema, type UploadRelease } from '@cbh/contracts';
import { RequirePermission } from '../auth/access.decorator';
import type { AppRequest } from '../auth/session-user';
import { ZodPipe } from '../common/validation/zod.pipe';
import { ReleasesService } from './releases.service';

const remoteName = new ZodPipe(z.string().regex(/^[a-z0-9_]{1,64}$/, 'must be a remote name such as mfe_dashboard'), 'remote');

/** Remote releases: who may ship a screen area to everyone is a system administrator. */
@Controller('releases')
@RequirePermission('system_admin')
export class ReleasesController {
  constructor(private readonly releases: ReleasesService) {}

  @Get()
  list() {
    return this.releases.list();
  }

  /** The contract check alone, for CI and `cbh release check`: nothing is kept. */
  @Post(':remote/check')
  @HttpCode(200)
  check(@Param('remote', remoteName) remote: string, @Body(new ZodPipe(uploadReleaseSchema)) body: UploadRelease) {
    return this.releases.check(remote, body);
  }

  @Post(':remote/versions')
  upload(@Req() req: AppRequest, @Param('remote', remoteName) remote: string, @Body(new ZodPipe(uploadReleaseSchema)) body: UploadRelease) {
    return this.releases.upload(req, remote, body);
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

  @Post(':remote/rollback')
  @HttpCode(200)
  rollback(@Req() req: AppRequest, @Param('remote', remoteName) remote: string) {
    return this.releases.rollback(req, remote);
  }
}
