import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { DEFAULT_BODY_BYTES, LARGE_BODY_ROUTES } from '../tools/testing/site-layout';

/**
 * What the deploy specs and the deployment rules (k8s-rules.test-kit.ts) share: the checkout's files, deploy/k8s
 * rendered offline by `kubectl kustomize`, the objects it renders, and what the API says of itself that a deployment
 * must leave room for, read from the API's own source so that a change there fails the manifests it no longer fits.
 */
export const ROOT = path.resolve(__dirname, '..');
export const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

export type K8sObject = { apiVersion: string; kind: string; metadata?: { name?: string; labels?: Record<string, string> } };
export const nameOf = (object: K8sObject) => `${object.kind} ${object.metadata?.name}`;
export const ofKind = <T>(objects: K8sObject[], kind: string) => objects.filter((object) => object.kind === kind) as unknown as T[];

// ——— rendering ———

/** The kubectl named in $KUBECTL, else one on PATH or where Debian's kubernetes-client puts it; null when none answers. */
function findKubectl(): string | null {
  const candidates = process.env.KUBECTL ? [process.env.KUBECTL] : ['kubectl', '/usr/bin/kubectl', '/usr/local/bin/kubectl'];
  return candidates.find((candidate) => spawnSync(candidate, ['version', '--client'], { stdio: 'ignore' }).status === 0) ?? null;
}
export const KUBECTL = findKubectl();
/** Its version: v1.20.2 (Debian's, with kustomize v2.0.3) or newer. */
export const KUBECTL_VERSION =
  KUBECTL && /v\d+\.\d+\.\d+/.exec(spawnSync(KUBECTL, ['version', '--client'], { encoding: 'utf8' }).stdout)?.[0];
export const NO_KUBECTL =
  'deploy/k8s.spec.ts needs kubectl (its built-in kustomize renders deploy/k8s): install one, e.g. `sudo apt-get install -y ' +
  'kubernetes-client` (Debian’s kubectl 1.20 will do; npm test installs it when run as root), or name one in KUBECTL';

export function render(dir: string): K8sObject[] {
  if (!KUBECTL) throw new Error(NO_KUBECTL);
  const result = spawnSync(KUBECTL, ['kustomize', path.join(ROOT, dir)], { encoding: 'utf8' });
  if (result.status !== 0) {
    const old = /^v1\.(1\d|20)\./.test(KUBECTL_VERSION ?? '')
      ? '\nThis kubectl has kustomize v2.0: keep deploy/k8s to the fields it reads (KUSTOMIZE_V2_FIELDS), or render with kubectl ≥ 1.21 (KUBECTL=…).'
      : '';
    throw new Error(`${KUBECTL} kustomize ${dir} failed (kubectl ${KUBECTL_VERSION}):\n${result.stderr}${old}`);
  }
  return parseAllDocuments(result.stdout).flatMap((document) => {
    if (document.errors.length) throw new Error(`${dir} rendered YAML that does not parse: ${document.errors[0]!.message}`);
    return document.toJS() ? [document.toJS() as K8sObject] : [];
  });
}

/** The kustomization fields kustomize v2.0.3 reads (it refuses any other; `resources` are files there, `bases` folders). */
export const KUSTOMIZE_V2_FIELDS = [
  'apiVersion',
  'kind',
  'resources',
  'bases',
  'namespace',
  'namePrefix',
  'nameSuffix',
  'commonLabels',
  'commonAnnotations',
  'configMapGenerator',
  'secretGenerator',
  'generatorOptions',
  'images',
  'patchesStrategicMerge',
  'patchesJson6902',
  'vars',
  'crds',
];

// ——— what the API says of itself ———

/**
 * How long the API's SIGTERM takes at most (api/src/main.ts, api/src/platform/shutdown/shutdown.ts): the grace, the time cut work has
 * to end, then the exit that follows regardless.
 */
function apiDrainSeconds(): number {
  const main = read('api/src/main.ts');
  const shutdown = read('api/src/platform/shutdown/shutdown.ts');
  const grace = /export const SHUTDOWN_GRACE_MS = ([\d_]+);/.exec(shutdown)?.[1];
  const afterCut = /export const STOP_AFTER_CUT_MS = ([\d_]+);/.exec(shutdown)?.[1];
  const exit = /process\.exit\(1\), SHUTDOWN_GRACE_MS \+ STOP_AFTER_CUT_MS \+ ([\d_]+)\)/.exec(main)?.[1];
  if (!grace || !afterCut || !exit)
    throw new Error(
      'api/src/main.ts or shutdown.ts no longer names its drain as before: read the SIGTERM handler and update apiDrainSeconds',
    );
  return [grace, afterCut, exit].reduce((sum, ms) => sum + Number(ms.replaceAll('_', '')), 0) / 1000;
}
export const DRAIN_SECONDS = apiDrainSeconds();

/** The largest body the API takes on a route: most take MAX_BODY_KB (its default here), some more. */
export const BODY_LIMITS: (readonly [string, number])[] = [['/api/login', DEFAULT_BODY_BYTES], ...LARGE_BODY_ROUTES];

/** Names whose values are secrets: they come from the Secret, never from the manifests (TOKEN_RATE_LIMIT is none). */
export const SECRET_NAME = /SECRET|PASSWORD|PASSWD|(^|_)(TOKEN|KEY)$|^DATABASE_URL$|^SMTP_URL$/;
export const SECRET_REF = 'cbh-secrets';
export const REQUIRED_SECRETS = ['DATABASE_URL', 'SESSION_SECRET'];
/** Values standing in for the Secret's when the configuration is checked with the API's own schema. */
export const PLACEHOLDER_SECRETS: Record<string, string> = {
  DATABASE_URL: 'postgres://cbh:placeholder@postgres.example:5432/circuit_breaker_hub',
  SESSION_SECRET: 'placeholder-session-secret-of-32-characters',
};
