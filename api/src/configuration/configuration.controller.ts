import { BadRequestException, Body, Controller, Get, Headers, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { stringify } from 'yaml';
import {
  configDocumentSchema,
  documentProblems,
  exportQuerySchema,
  importQuerySchema,
  type ConfigFormat,
  type ImportQuery,
  type ImportResult,
} from '@cbh/contracts';
import { RequirePermission } from '../auth/access.decorator';
import type { AppRequest } from '../auth/session-user';
import { ZodPipe } from '../common/validation/zod.pipe';
import { ConfigurationService } from './configuration.service';
import { isYaml, parseYamlDocument } from './document-body';

@Controller()
export class ConfigurationController {
  constructor(private readonly configuration: ConfigurationService) {}

  /** The configuration document: JSON unless ?format=yaml or Accept asks for YAML; the same state gives the same bytes. */
  @Get('export')
  @RequirePermission('export_data')
  async export(
    @Query(new ZodPipe(exportQuerySchema)) query: { format?: ConfigFormat },
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<string> {
    const format = query.format ?? (acceptsYaml(accept) ? 'yaml' : 'json');
    const document = await this.configuration.exportDocument();
    res.header('content-type', format === 'yaml' ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8');
    res.header('content-disposition', `attachment; filename="hub.${format}"`);
    return format === 'yaml' ? stringify(document, { lineWidth: 0 }) : `${JSON.stringify(document, null, 2)}\n`;
  }

  /** Applies a document (JSON or YAML by Content-Type) in one transaction, or with ?dryRun=true only says what it would change. */
  @Post('import')
  @RequirePermission('import_data')
  @HttpCode(200)
  import(
    @Req() req: AppRequest,
    @Query(new ZodPipe(importQuerySchema)) query: ImportQuery,
    @Headers('content-type') contentType: string | undefined,
    @Body() body: unknown,
  ): Promise<ImportResult> {
    if (body === undefined || body === null || body === '') throw new BadRequestException('Send the configuration document as the body');
    const value = isYaml(contentType) ? parseYamlDocument(body as string) : body;
    const parsed = configDocumentSchema.safeParse(value);
    if (!parsed.success) throw new BadRequestException(documentProblems(parsed.error).slice(0, MAX_PROBLEMS).join('; '));
    return this.configuration.import(req, parsed.data, query);
  }
}

/** A refusal names this many problems at most: enough to fix a file, short enough to read. */
const MAX_PROBLEMS = 20;

function acceptsYaml(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => isYaml(part));
}
