import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AccessGuard } from './access.guard';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { SessionReader } from './session-reader.service';
import { PgSessionStore } from './session-store';
import { UserDirectory } from './user-directory.service';

/**
 * Global because the access guard guards every controller of every module, and the session store and
 * user directory it exports serve the app's middleware, the /ws upgrade and the user features alike.
 */
@Global()
@Module({
  controllers: [AuthController],
  providers: [
    AuthService,
    UserDirectory,
    SessionReader,
    { provide: PgSessionStore, useFactory: (dataSource: DataSource) => new PgSessionStore(dataSource), inject: [DataSource] },
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [AuthService, UserDirectory, PgSessionStore, SessionReader],
})
export class AuthModule {}
