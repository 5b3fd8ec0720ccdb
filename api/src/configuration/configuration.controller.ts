import { Body, Controller, Get, Headers, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { stringify } from 'yaml';
import {
  exportQuerySchema,
  importQuerySchema,
  type ConfigDocument,
  type ConfigFormat,
  type ImportQuery,
  type ImportResult,
} from '@cbh/contracts';
import { isYaml, RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { ConfigurationService } from './configuration.service';
import { ConfigDocumentPipe } from './document-body';

@Controller()
export class ConfigurationController {
  constructor(private readonly configuration: ConfigurationService) {}

  /** The configuration document: JSON unless ?format=yaml or Accept asks for YAML; the same state gives the same bytes. */
  @Get('export')
  @RequirePermission('export_data')
  async export(
    @Req() req: AppRequest,
    @Query(new ZodPipe(exportQuerySchema)) query: { format?: ConfigFormat },
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<string> {
    const format = query.format ?? (acceptsYaml(accept) ? 'yaml' : 'json');
    const document = await this.configuration.exportDocument(req);
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
    @Body(new ConfigDocumentPipe()) document: ConfigDocument,
  ): Promise<ImportResult> {
    return this.configuration.import(req, document, query);
  }
}

function acceptsYaml(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => isYaml(part));
}
