import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import { CONFIG_DOCUMENT_MAX_BYTES, YAML_MEDIA_TYPES } from '@cbh/contracts';

/** The one route that reads a configuration document: it takes YAML as well as JSON, up to the document's size. */
export const IMPORT_PATH = '/api/import';

const mediaTypeOf = (value: string | undefined) =>
  String(value ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

export const isYaml = (contentType: string | undefined) => (YAML_MEDIA_TYPES as readonly string[]).includes(mediaTypeOf(contentType));

/**
 * Lets POST /api/import read documents of up to CONFIG_DOCUMENT_MAX_BYTES (other routes keep MAX_BODY_KB) and
 * hands YAML bodies to the route as text. Other /api routes still refuse YAML (web/cross-origin.ts) before parsing.
 * Called before the application listens: Nest registers its routes then.
 */
export function acceptConfigDocuments(http: FastifyInstance) {
  http.addHook('onRoute', (route) => {
    if (route.url === IMPORT_PATH) route.bodyLimit = CONFIG_DOCUMENT_MAX_BYTES;
  });
  http.addContentTypeParser([...YAML_MEDIA_TYPES], { parseAs: 'string' }, (_request, body, done) => done(null, body));
}

/**
 * A YAML document as plain data: one document, YAML 1.2's core types only, aliases bounded (no "billion laughs"),
 * a key given twice refused. Anything the parser cannot read (nesting too deep included) is the sender's 400.
 */
export function parseYamlDocument(text: string): unknown {
  try {
    return parse(text, { schema: 'core', uniqueKeys: true, maxAliasCount: 100, prettyErrors: true });
  } catch (error) {
    const message = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message.split('\n')[0];
    throw new BadRequestException(`The document is not valid YAML: ${message}`);
  }
}
