import type { TestApi } from '../../test/test-api';

/** A response's JSON body, typed as the caller expects it. */
export const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;

/** Calls to the spec file's API with one session's cookie. */
export const callsAs =
  (spec: { readonly api: TestApi }, cookie: string) =>
  (path: string, method = 'GET', body?: unknown) =>
    spec.api.call(path, { method, body, cookie });
