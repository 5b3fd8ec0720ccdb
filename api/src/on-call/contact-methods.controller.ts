import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Req } from '@nestjs/common';
import { createContactMethodSchema, type CreateContactMethod } from '@cbh/contracts';
import { SessionOnly, SignedIn, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { ContactMethodsService } from './contact-methods.service';

/** The signed-in person's own contact methods, in a session only: where they are paged is theirs to set. */
@Controller('account/contact-methods')
@SignedIn()
@SessionOnly('Changing your contact methods')
export class ContactMethodsController {
  constructor(private readonly methods: ContactMethodsService) {}

  @Get()
  list(@Req() req: AppRequest) {
    return this.methods.list(req.user!.id);
  }

  @Post()
  add(@Req() req: AppRequest, @Body(new ZodPipe(createContactMethodSchema)) body: CreateContactMethod) {
    return this.methods.add(req, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Req() req: AppRequest, @Param('id', new ParseUUIDPipe({ version: '4' })) id: string) {
    await this.methods.remove(req, id);
  }
}
