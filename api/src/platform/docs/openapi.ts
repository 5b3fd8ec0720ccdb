import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { DiscoveryService } from '@nestjs/core';
import { z } from 'zod';
import { ACCESS_KEY, type Access, SESSION_ONLY_KEY } from '../web/access.decorator';
import { ZodPipe } from '../common/validation/zod.pipe';

const BODY = 3;
const QUERY = 4;
const PARAM = 5;

const ERROR_SCHEMA = {
  type: 'object',
  required: ['statusCode', 'error', 'message'],
  properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } },
};

function describeAccess(access: Access | undefined): string {
  if (!access) return 'Refused: declares no access rule.';
  switch (access.kind) {
    case 'public':
      return 'Open to everyone.';
    case 'signed-in':
      return 'Any signed-in account.';
    case 'permission':
      return `Signed in with the \`${access.permission}\` permission (super_admin holds all).`;
    case 'any-permission':
      return `Signed in with ${access.permissions.map((permission) => `\`${permission}\``).join(' or ')} (super_admin holds all).`;
    case 'super-admin':
      return 'Signed in as a super_admin.';
    case 'elevation-account':
      return 'Only the ELEVATION_EMAIL account while it is not super_admin.';
    case 'metrics-scrape':
      return 'A scrape with `Authorization: Bearer <METRICS_TOKEN>`, or signed in with `metrics_view`.';
    case 'service-agent':
      return "A service account's access token (`Authorization: Bearer`), reporting as that service.";
  }
}

const join = (...parts: (string | undefined)[]) =>
  '/' +
  parts
    .flatMap((part) => (part ?? '').split('/'))
    .filter(Boolean)
    .join('/');

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

/** The OpenAPI document of the API, read from the controllers: routes, access rules and the zod schemas their pipes validate with. */
export function buildOpenApi(discovery: DiscoveryService, prefix: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
    if (!controller) continue;
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    const classAccess = Reflect.getMetadata(ACCESS_KEY, controller) as Access | undefined;
    for (const name of Object.getOwnPropertyNames(controller.prototype).filter((n) => n !== 'constructor')) {
      const handler = controller.prototype[name];
      const route = typeof handler === 'function' ? (Reflect.getMetadata(PATH_METADATA, handler) as string | undefined) : undefined;
      if (route === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number]!.toLowerCase();
      const access = (Reflect.getMetadata(ACCESS_KEY, handler) as Access | undefined) ?? classAccess;
      const sessionOnly = (Reflect.getMetadata(SESSION_ONLY_KEY, handler) ?? Reflect.getMetadata(SESSION_ONLY_KEY, controller)) as
        string | undefined;
      const path = join(prefix, base, route).replace(/:(\w+)/g, '{$1}');
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
        string,
        { data?: string; pipes?: unknown[] }
      >;

      const parameters: unknown[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, param]) => ({
        name: param,
        in: 'path',
        required: true,
        schema: { type: 'string' },
      }));
      let requestBody: unknown;
      for (const [key, arg] of Object.entries(args)) {
        const type = Number(key.split(':')[0]);
        const pipe = arg.pipes?.find((p): p is ZodPipe<z.ZodType> => p instanceof ZodPipe);
        if (!pipe) continue;
        const schema = jsonSchema(pipe.schema) as { properties?: Record<string, unknown>; required?: string[] };
        if (type === BODY) requestBody = { required: true, content: { 'application/json': { schema } } };
        if (type === QUERY) {
          for (const [param, property] of Object.entries(schema.properties ?? {})) {
            parameters.push({ name: param, in: 'query', required: schema.required?.includes(param) ?? false, schema: property });
          }
        }
        if (type === PARAM && arg.data) {
          const existing = parameters.find((p) => (p as { name: string }).name === arg.data) as { schema: unknown } | undefined;
          if (existing) existing.schema = schema;
        }
      }
      paths[path] ??= {};
      paths[path]![method] = {
        operationId: `${controller.name.replace(/Controller$/, '')}.${name}`,
        tags: [controller.name.replace(/Controller$/, '')],
        description: sessionOnly
          ? `${describeAccess(access)} Needs a person's session: never with an access token.`
          : `${describeAccess(access)}${access?.kind === 'public' ? '' : ' A session or an access token (`Authorization: Bearer cbh_…`).'}`,
        ...(parameters.length ? { parameters } : {}),
        ...(requestBody ? { requestBody } : {}),
        responses: {
          default: {
            description: 'Success, or an error in the JSON error shape',
            content: { 'application/json': { schema: { oneOf: [{}, { $ref: '#/components/schemas/Error' }] } } },
          },
          ...(access?.kind !== 'public'
            ? { 401: { $ref: '#/components/responses/Error' }, 403: { $ref: '#/components/responses/Error' } }
            : {}),
          ...(requestBody || parameters.length ? { 400: { $ref: '#/components/responses/Error' } } : {}),
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Circuit Breaker Hub API',
      version: '1',
      description: 'Sign in at /api/login; the session cookie authenticates every other call.',
    },
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      responses: { Error: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'cbh.sid' } },
    },
    security: [{ session: [] }],
  };
}
