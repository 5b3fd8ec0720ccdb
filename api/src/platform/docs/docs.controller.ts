import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { Public } from '../web/access.decorator';
import { buildOpenApi } from './openapi';

// Node's own resolution at run time (the bundler would replace a plain require.resolve with a module id).
const SWAGGER_UI = path.dirname(createRequire(__filename).resolve('swagger-ui-dist/package.json'));
const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js'];

/** OpenAPI at /api/docs: the document as JSON and Swagger UI to read it. */
@Controller('docs')
@Public()
export class DocsController {
  private document?: object;

  constructor(private readonly discovery: DiscoveryService) {}

  @Get()
  page(@Res() res: FastifyReply) {
    res.type('text/html; charset=utf-8')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Circuit Breaker Hub API</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div><script src="/api/docs/assets/swagger-ui-bundle.js"></script><script src="/api/docs/init.js"></script></body></html>`);
  }

  @Get('init.js')
  init(@Res() res: FastifyReply) {
    res.type('text/javascript; charset=utf-8').send("window.ui = SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#docs' });");
  }

  @Get('openapi.json')
  openapi() {
    this.document ??= buildOpenApi(this.discovery, 'api');
    return this.document;
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() res: FastifyReply) {
    if (!ASSETS.includes(file)) throw new NotFoundException(`No such asset: ${file}`);
    res
      .type(file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(readFileSync(path.join(SWAGGER_UI, file)));
  }
}
