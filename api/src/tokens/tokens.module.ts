import { Global, Module } from '@nestjs/common';
import { TokenAuthenticator } from './token-authenticator.service';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

/**
 * Personal access tokens. Global because the access guard (every route), the /ws upgrade and the gateway's
 * socket checks authenticate tokens through TokenAuthenticator.
 */
@Global()
@Module({
  controllers: [TokensController],
  providers: [TokensRepository, TokenAuthenticator, TokensService],
  exports: [TokenAuthenticator],
})
export class TokensModule {}
