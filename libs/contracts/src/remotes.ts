// zod/mini keeps this schema small enough for the shell's initial bundle.
import * as z from 'zod/mini';

/** An absolute path whose segments are words or parameters: /, /dashboard, /circuit-breakers/:id. */
const routePath = z
  .string()
  .check(z.regex(/^\/$|^(\/([A-Za-z0-9-]+|:[A-Za-z]+))+$/, 'a route is an absolute path such as /dashboard or /circuit-breakers/:id'));

/** One independently deployed screen area, as listed in /remotes.json. */
export const remoteDescriptorSchema = z.object({
  /** The federation container name, e.g. mfe_dashboard. */
  name: z.string().check(z.regex(/^[a-z][a-z0-9_]*$/, 'a container name is lower_snake_case')),
  /** URL of the remote's mf-manifest.json, same-origin path or absolute URL. */
  entry: z.string().check(z.minLength(1)),
  /** The exact route paths this remote renders. */
  routes: z.array(routePath).check(z.minLength(1)),
});
export type RemoteDescriptor = z.infer<typeof remoteDescriptorSchema>;

export const remotesManifestSchema = z.object({ remotes: z.array(remoteDescriptorSchema) }).check(
  z.refine(
    (manifest) => {
      const routes = manifest.remotes.flatMap((remote) => remote.routes);
      return new Set(routes).size === routes.length;
    },
    { message: 'each route belongs to exactly one remote' },
  ),
);
export type RemotesManifest = z.infer<typeof remotesManifestSchema>;

/** Every remote exposes its routes component under this module name. */
export const REMOTE_ROUTES_MODULE = 'Routes';
