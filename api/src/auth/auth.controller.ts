import { Controller, Get, UnauthorizedException } from '@nestjs/common';

@Controller('auth')
export class AuthController {
  /** The signed-in account. Nobody can sign in yet, so every caller is signed out. */
  @Get('user')
  user(): never {
    throw new UnauthorizedException('Not signed in');
  }
}
