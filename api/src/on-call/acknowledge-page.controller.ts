import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { alertGroupPath } from '@cbh/contracts';
import { Public, sendSmallPage, ZodPipe } from '../platform';
import { AcknowledgeLinks, ACKNOWLEDGE_PATH } from './acknowledge-links';
import { AlertGroupsService } from './alert-groups.service';

// `code`, not `token`: the hub refuses access tokens in URLs, and this link is none
const codeQuery = z.object({ code: z.string().max(200).optional() });
const codeBody = z.object({ code: z.string().max(200).optional() });

/**
 * The page an alert group's acknowledge link opens, served without the SPA and without a session: the link's
 * signature is its credential. GET only shows the group and a button; the button's POST acknowledges (a mail
 * scanner opening the link changes nothing), under the same cross-site rules as every form of the hub.
 */
@Controller('public/acknowledge')
@Public()
export class AcknowledgePageController {
  constructor(
    private readonly links: AcknowledgeLinks,
    private readonly groups: AlertGroupsService,
  ) {}

  @Get()
  async page(@Res() reply: FastifyReply, @Query(new ZodPipe(codeQuery)) query: z.infer<typeof codeQuery>) {
    const link = this.links.verify(query.code ?? '');
    const group = link ? await this.groups.find(link.groupId) : null;
    if (!link || !group) return broken(reply);
    if (group.state === 'resolved')
      return sendSmallPage(reply, { title: 'Already resolved', text: `${group.title} was resolved; nothing to acknowledge.` });
    if (group.state === 'acknowledged')
      return sendSmallPage(reply, {
        title: 'Already acknowledged',
        text: `${group.title} was acknowledged by ${group.acknowledgedBy ?? 'someone'}.`,
      });
    return sendSmallPage(reply, {
      title: `Acknowledge alert group ${group.id}?`,
      text: `${group.title}. Acknowledging stops its escalation: nobody else is paged for it.`,
      form: { action: ACKNOWLEDGE_PATH, token: query.code!, button: 'Acknowledge' },
    });
  }

  @Post()
  @HttpCode(200)
  async acknowledge(@Res() reply: FastifyReply, @Body(new ZodPipe(codeBody)) body: z.infer<typeof codeBody>) {
    const link = this.links.verify(body.code ?? '');
    if (!link) return broken(reply);
    const group = await this.groups.acknowledgeByLink(link.groupId, link.to);
    if (group === 'gone') return broken(reply);
    if (!group)
      return sendSmallPage(reply.status(409), { title: 'Already resolved', text: 'The alert group was resolved; nothing to acknowledge.' });
    return sendSmallPage(reply, {
      title: 'Acknowledged',
      text: `${group.title} is acknowledged by ${group.acknowledgedBy ?? 'someone'}. Its escalation stopped.`,
      back: { href: alertGroupPath(group.id), label: 'Open the alert group' },
    });
  }
}

function broken(reply: FastifyReply) {
  return sendSmallPage(reply.status(404), {
    title: 'This link does not work',
    text: 'It was altered, or its alert group, account or channel is gone.',
  });
}
