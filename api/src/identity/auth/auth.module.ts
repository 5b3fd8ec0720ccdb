import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { UsersRepository } from '../users/users.repository';
import { AccessGuard } from './access.guard';
import { AuthHousekeeping } from './auth-housekeeping.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { SessionReader } from './session-reader.service';
import { PgSessionStore } from './session-store';
import { SignInAttemptsRepository } from './sign-in-attempts.repository';
import { sessionKey } from './session-key';
import { SessionsRepository } from './sessions.repository';
import { UserDirectory } from './user-directory.service';

/**
 * Global because the access guard guards every controller of every module, and the session store, user
 * directory and account statements it exports serve the app's middleware, the /ws upgrade and the user
 * features alike (one UsersRepository for both).
 */
@Global()
@Module({
  controllers: [AuthController],
  providers: [
    SignInAttemptsRepository,
    AuthHousekeeping,
    AuthService,
    UserDirectory,
    SessionReader,
    SessionsRepository,
    // the account statements: OpenID Connect sign-in creates accounts here, the users feature manages them
    UsersRepository,
    {
      provide: PgSessionStore,
      useFactory: (sessions: SessionsRepository) => new PgSessionStore(sessions, sessionKey),
      inject: [SessionsRepository],
    },
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [AuthService, UserDirectory, PgSessionStore, SessionReader, SessionsRepository, UsersRepository],
})
export class AuthModule {}
