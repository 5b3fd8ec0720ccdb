import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import {
  CONFIG_DOCUMENT_MAX_BYTES,
  CONFIG_IMPORT_PATH,
  configDocumentSchema,
  documentProblems,
  YAML_MEDIA_TYPES,
  type ConfigDocument,
} from '@cbh/contracts';
import { ZodPipe } from '../platform';
import { MAX_YAML_DEPTH, yamlDepthExceeds } from './yaml-depth';

/**
 * Lets POST /api/import read documents of up to CONFIG_DOCUMENT_MAX_BYTES (other routes keep MAX_BODY_KB) and
 * hands YAML bodies to the route as text. Other /api routes still refuse YAML (platform/web/cross-origin.ts) before parsing.
 * Called before the application listens: Nest registers its routes then.
 */
export function acceptConfigDocuments(http: FastifyInstance) {
  http.addHook('onRoute', (route) => {
    if (route.url === CONFIG_IMPORT_PATH) route.bodyLimit = CONFIG_DOCUMENT_MAX_BYTES;
  });
  http.addContentTypeParser([...YAML_MEDIA_TYPES], { parseAs: 'string' }, (_request, body, done) => done(null, new YamlText(String(body))));
}

/** A body sent as YAML, still text: the document pipe reads it (a JSON body arrives parsed, and may be a string itself). */
export class YamlText {
  constructor(readonly text: string) {}
}

/** A refusal names this many problems at most: enough to fix a file, short enough to read. */
const MAX_PROBLEMS = 20;

/**
 * The body of POST /api/import as a configuration document, from JSON or YAML: a 400 names each problem by its place
 * in the document (`breakers[2].failureThreshold: must be at most 20`). The API docs show the document's schema.
 */
export class ConfigDocumentPipe extends ZodPipe<typeof configDocumentSchema> {
  constructor() {
    super(configDocumentSchema);
  }

  override transform(body: unknown): ConfigDocument {
    if (body === undefined || (body instanceof YamlText && body.text.trim() === '')) {
      throw new BadRequestException('Send the configuration document as the body');
    }
    const parsed = configDocumentSchema.safeParse(body instanceof YamlText ? parseYamlDocument(body.text) : body);
    if (parsed.success) return parsed.data;
    throw new BadRequestException(documentProblems(parsed.error).slice(0, MAX_PROBLEMS).join('; '));
  }
}

/**
 * A YAML document as plain data: one document, YAML 1.2's core types only, aliases bounded (no "billion laughs"),
 * depth bounded before parsing (yaml-depth.ts), a key given twice refused. Anything the parser cannot read is the
 * sender's 400.
 */
function parseYamlDocument(text: string): unknown {
  if (yamlDepthExceeds(text)) {
    throw new BadRequestException(
      `The document is not valid YAML: it is nested too deeply (more than ${MAX_YAML_DEPTH} brackets, indicators and columns of indentation on a line)`,
    );
  }
  try {
    return parse(text, { schema: 'core', uniqueKeys: true, maxAliasCount: 100, prettyErrors: true });
  } catch (error) {
    const message = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message.split('\n')[0];
    throw new BadRequestException(`The document is not valid YAML: ${message}`);
  }
}
