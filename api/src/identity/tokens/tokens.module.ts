import { Global, Module } from '@nestjs/common';
import { TokenAuthenticator } from './token-authenticator.service';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

/**
 * Access tokens. Global because the access guard (every route), the /ws upgrade and the gateway's socket checks
 * authenticate tokens through TokenAuthenticator, and service accounts' tokens are made by the same TokensService.
 */
@Global()
@Module({
  controllers: [TokensController],
  providers: [TokensRepository, TokenAuthenticator, TokensService],
  exports: [TokenAuthenticator, TokensService],
})
export class TokensModule {}
