import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress, type IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { Secret, type ISecret } from 'kubernetes-models/v1/Secret';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import { envSchema } from '../api/src/platform/config/config';
import { freePort } from '../tools/testing/free-port';
import { DEFAULT_BODY_BYTES, LARGE_BODY_ROUTES, REMOTE_FOLDERS } from '../tools/testing/site-layout';

/**
 * deploy/k8s rendered offline by `kubectl kustomize` (the base and the example overlay), every object checked against
 * the Kubernetes schemas (kubernetes-models) and against the rules a deployment of the hub needs; then the site
 * image's nginx configuration run by Debian's nginx over the layout deploy/site.Dockerfile makes.
 */
const ROOT = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

type K8sObject = { apiVersion: string; kind: string; metadata?: { name?: string; labels?: Record<string, string> } };
const nameOf = (object: K8sObject) => `${object.kind} ${object.metadata?.name}`;
const ofKind = <T>(objects: K8sObject[], kind: string) => objects.filter((object) => object.kind === kind) as unknown as T[];

// ——— rendering ———

/** The kubectl named in $KUBECTL, else one on PATH or where Debian's kubernetes-client puts it; null when none answers. */
function findKubectl(): string | null {
  const candidates = process.env.KUBECTL ? [process.env.KUBECTL] : ['kubectl', '/usr/bin/kubectl', '/usr/local/bin/kubectl'];
  return candidates.find((candidate) => spawnSync(candidate, ['version', '--client'], { stdio: 'ignore' }).status === 0) ?? null;
}
const KUBECTL = findKubectl();
/** Its version: v1.20.2 (Debian's, with kustomize v2.0.3) or newer. */
const KUBECTL_VERSION = KUBECTL && /v\d+\.\d+\.\d+/.exec(spawnSync(KUBECTL, ['version', '--client'], { encoding: 'utf8' }).stdout)?.[0];
const NO_KUBECTL =
  'deploy/k8s.spec.ts needs kubectl (its built-in kustomize renders deploy/k8s): install one, e.g. `sudo apt-get install -y ' +
  'kubernetes-client` (Debian’s kubectl 1.20 will do; npm test installs it when run as root), or name one in KUBECTL';

function render(dir: string): K8sObject[] {
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
const KUSTOMIZE_V2_FIELDS = [
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
const DRAIN_SECONDS = apiDrainSeconds();

/** The largest body the API takes on a route: most take MAX_BODY_KB (its default here), some more. */
const BODY_LIMITS: (readonly [string, number])[] = [['/api/login', DEFAULT_BODY_BYTES], ...LARGE_BODY_ROUTES];

/** Names whose values are secrets: they come from the Secret, never from the manifests (TOKEN_RATE_LIMIT is none). */
const SECRET_NAME = /SECRET|PASSWORD|PASSWD|(^|_)(TOKEN|KEY)$|^DATABASE_URL$|^SMTP_URL$/;
const SECRET_REF = 'cbh-secrets';
const REQUIRED_SECRETS = ['DATABASE_URL', 'SESSION_SECRET'];
/** Values standing in for the Secret's when the configuration is checked with the API's own schema. */
const PLACEHOLDER_SECRETS: Record<string, string> = {
  DATABASE_URL: 'postgres://cbh:placeholder@postgres.example:5432/circuit_breaker_hub',
  SESSION_SECRET: 'placeholder-session-secret-of-32-characters',
};

// ——— the rules ———

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
};

function schemaProblems(object: K8sObject): string[] {
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) return [`${nameOf(object)} (${object.apiVersion}): no schema to check it against; add its model to MODELS`];
  try {
    new Model(object as never).validate();
    return [];
  } catch (error) {
    return [`${nameOf(object)} does not match the Kubernetes schema: ${(error as Error).message}`];
  }
}

const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels?.[key] === value);

const containersOf = (spec: IPodSpec | undefined): IContainer[] => [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];

/** An image reference's problem: none with a tag or a digest, other than latest. */
function imageProblem(image: string | undefined): string | null {
  if (!image) return 'has no image';
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return null;
  const tag = /:([\w][\w.-]{0,127})$/.exec(image.slice(image.lastIndexOf('/') + 1))?.[1];
  if (!tag) return `runs ${image} without a tag: name a version`;
  if (tag === 'latest') return `runs ${image}: latest is no version; name one`;
  return null;
}

/** nginx's size syntax (ingress-nginx's proxy-body-size, 1m when unset) in bytes. */
function bytesOf(size: string | undefined): number {
  const match = /^(\d+)([kmg]?)$/i.exec(size ?? '1m');
  if (!match) return NaN;
  return Number(match[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
}

/** A preStop hook's wait in seconds (`sleep N` or the sleep action), 0 without one. */
function preStopSeconds(container: IContainer): number {
  const preStop = container.lifecycle?.preStop as { exec?: { command?: string[] }; sleep?: { seconds: number } } | undefined;
  if (preStop?.sleep) return preStop.sleep.seconds;
  const command = preStop?.exec?.command?.join(' ') ?? '';
  return Number(/(?:^|\s)sleep (\d+)$/.exec(command)?.[1] ?? 0);
}

interface Route {
  ingress: IIngress;
  host: string | undefined;
  path: string;
  pathType: string;
  service: string;
  port: string | number;
}

function routesOf(ingresses: IIngress[]): Route[] {
  return ingresses.flatMap((ingress) =>
    (ingress.spec?.rules ?? []).flatMap((rule) =>
      (rule.http?.paths ?? []).map((entry) => ({
        ingress,
        host: rule.host,
        path: entry.path ?? '/',
        pathType: entry.pathType,
        service: entry.backend.service?.name ?? '',
        port: entry.backend.service?.port?.name ?? entry.backend.service?.port?.number ?? '',
      })),
    ),
  );
}

/** The route a request path takes: an Exact path first, else the longest Prefix by whole path elements (networking.k8s.io/v1). */
function routeFor(routes: Route[], requestPath: string): Route | undefined {
  const exact = routes.find((route) => route.pathType === 'Exact' && route.path === requestPath);
  if (exact) return exact;
  const elements = (value: string) => value.split('/').filter(Boolean);
  const covers = (prefix: string) => elements(prefix).every((element, index) => elements(requestPath)[index] === element);
  return routes
    .filter((route) => route.pathType === 'Prefix' && covers(route.path))
    .sort((a, b) => elements(b.path).length - elements(a.path).length)[0];
}

/** The objects of a rendered deployment, by kind. */
function inventory(objects: K8sObject[]) {
  return {
    deployments: ofKind<IDeployment>(objects, 'Deployment'),
    services: ofKind<IService>(objects, 'Service'),
    configMaps: ofKind<IConfigMap>(objects, 'ConfigMap'),
    secrets: ofKind<ISecret>(objects, 'Secret'),
    ingresses: ofKind<IIngress>(objects, 'Ingress'),
    hpas: ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler'),
    pdbs: ofKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget'),
  };
}
type Inventory = ReturnType<typeof inventory>;

/** Secret values anywhere but in the cluster's Secret cbh-secrets. */
function secretProblems({ secrets, configMaps, deployments }: Inventory): string[] {
  const problems: string[] = [];
  for (const secret of secrets) {
    if (Object.keys({ ...secret.data, ...secret.stringData }).length)
      problems.push(`Secret ${secret.metadata?.name} carries values: secrets are created in the cluster, never kept in the repository`);
  }
  for (const configMap of configMaps) {
    for (const key of Object.keys(configMap.data ?? {}).filter((key) => SECRET_NAME.test(key)))
      problems.push(`ConfigMap ${configMap.metadata?.name} holds ${key}: a secret belongs in the Secret ${SECRET_REF}`);
  }
  for (const deployment of deployments) {
    for (const container of containersOf(deployment.spec?.template.spec)) {
      for (const variable of (container.env ?? []).filter((variable) => SECRET_NAME.test(variable.name))) {
        const where = `Deployment ${deployment.metadata?.name}, container ${container.name}: ${variable.name}`;
        const ref = variable.valueFrom?.secretKeyRef;
        if (variable.value !== undefined || !ref)
          problems.push(`${where} is written in the manifest; take it from the Secret ${SECRET_REF}`);
        else if (ref.name !== SECRET_REF) problems.push(`${where} comes from the Secret ${ref.name}, not ${SECRET_REF}`);
        else if (REQUIRED_SECRETS.includes(variable.name) && ref.optional) problems.push(`${where} is optional, but the API needs it`);
      }
    }
  }
  return problems;
}

/** Every pod: its own selector, a non-root user, and per container a versioned image, resources, probes, no privileges. */
function podProblems({ deployments }: Inventory): string[] {
  const problems: string[] = [];
  for (const deployment of deployments) {
    const name = `Deployment ${deployment.metadata?.name}`;
    const pod = deployment.spec?.template.spec;
    if (!matches(deployment.spec?.selector.matchLabels, deployment.spec?.template.metadata?.labels))
      problems.push(`${name}: its selector does not select its own pods`);
    if (pod?.securityContext?.runAsNonRoot !== true) problems.push(`${name}: runAsNonRoot is not set for its pods`);
    if (!(Number(pod?.securityContext?.runAsUser) > 0)) problems.push(`${name}: its pods name no non-root user by number (runAsUser)`);
    for (const container of containersOf(pod)) {
      const where = `${name}, container ${container.name}`;
      const image = imageProblem(container.image);
      if (image) problems.push(`${where} ${image}`);
      for (const kind of ['requests', 'limits'] as const) {
        for (const resource of ['cpu', 'memory'])
          if (!container.resources?.[kind]?.[resource]) problems.push(`${where}: no ${resource} in its resources' ${kind}`);
      }
      if (!container.readinessProbe) problems.push(`${where}: no readinessProbe`);
      if (!container.livenessProbe) problems.push(`${where}: no livenessProbe`);
      const security = container.securityContext;
      if (security?.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation is not false`);
      if (security?.readOnlyRootFilesystem !== true) problems.push(`${where}: its root filesystem is not read-only`);
      if (!security?.capabilities?.drop?.includes('ALL')) problems.push(`${where}: does not drop ALL capabilities`);
    }
  }
  return problems;
}

/** The API: 2 replicas at the least under its autoscaler, a disruption budget, its health probes and time to drain. */
function apiProblems(api: IDeployment, { hpas, pdbs }: Inventory): string[] {
  const problems: string[] = [];
  const pod = api.spec!.template;
  const container = pod.spec!.containers[0]!;
  const hpa = hpas.find((candidate) => candidate.spec?.scaleTargetRef.name === api.metadata?.name);
  const minimum = hpa ? (hpa.spec?.minReplicas ?? 1) : (api.spec?.replicas ?? 1);
  if (minimum < 2)
    problems.push(
      `the API runs ${minimum} replica${minimum === 1 ? '' : 's'} at the least: 2 or more keep it up while one fails or is replaced`,
    );
  if (hpa && api.spec?.replicas !== undefined)
    problems.push('the API Deployment says replicas beside its autoscaler: every `kubectl apply` would put that count back');
  if (!hpa) problems.push('no HorizontalPodAutoscaler targets the API Deployment');
  else {
    const target = hpa.spec!.scaleTargetRef;
    if (target.kind !== 'Deployment' || target.apiVersion !== 'apps/v1')
      problems.push(`the autoscaler targets a ${target.apiVersion} ${target.kind}`);
    if (!hpa.spec?.metrics?.some((metric) => metric.type === 'Resource' && metric.resource?.name === 'cpu'))
      problems.push('the API autoscaler does not follow CPU');
  }
  for (const other of hpas.filter((candidate) => candidate !== hpa))
    problems.push(`HorizontalPodAutoscaler ${other.metadata?.name} targets ${other.spec?.scaleTargetRef.name}, which is not the API`);

  const budget = pdbs.find((candidate) => matches(candidate.spec?.selector?.matchLabels, pod.metadata?.labels));
  if (!budget) problems.push('no PodDisruptionBudget selects the API pods');
  else if (!(Number(budget.spec?.minAvailable) >= 1))
    problems.push(`the API PodDisruptionBudget lets every pod go (minAvailable ${budget.spec?.minAvailable})`);

  const readiness = container.readinessProbe?.httpGet;
  if (readiness?.path !== '/api/health' || readiness.port !== 'http')
    problems.push('the API is not ready by GET /api/health on its http port');
  const liveness = container.livenessProbe;
  if (liveness?.httpGet?.path === '/api/health')
    problems.push('the API’s liveness fails on /api/health’s 503 (the database down): every replica would restart at once');
  else if (!liveness?.exec?.command?.some((part) => typeof part === 'string' && part.includes('/api/health')))
    problems.push('the API’s liveness does not ask /api/health whether the process answers');

  const grace = pod.spec?.terminationGracePeriodSeconds ?? 30;
  const preStop = preStopSeconds(container);
  if (preStop < 5) problems.push(`the API waits ${preStop} s before SIGTERM (preStop): its endpoints would still get requests`);
  if (grace < preStop + DRAIN_SECONDS)
    problems.push(`the API gets ${grace} s to stop, less than its preStop ${preStop} s and its drain of ${DRAIN_SECONDS} s`);
  return problems;
}

/** The API's environment as the pod gets it (placeholders for the Secret's values), read by the API's own schema. */
function apiConfig(api: IDeployment, { configMaps }: Inventory) {
  const problems: string[] = [];
  const container = api.spec!.template.spec!.containers[0]!;
  const env: Record<string, string> = { NODE_ENV: 'production' };
  for (const source of container.envFrom ?? []) {
    const ref = source.configMapRef?.name;
    const configMap = configMaps.find((candidate) => candidate.metadata?.name === ref);
    if (ref && !configMap) problems.push(`the API reads the ConfigMap ${ref}, which is not rendered`);
    Object.assign(env, configMap?.data);
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) env[variable.name] = variable.value;
    else if (PLACEHOLDER_SECRETS[variable.name]) env[variable.name] = PLACEHOLDER_SECRETS[variable.name]!;
  }
  for (const name of REQUIRED_SECRETS)
    if (!container.env?.some((variable) => variable.name === name))
      problems.push(`the API is not given ${name} from the Secret ${SECRET_REF}`);
  for (const name of Object.keys(env)) if (!(name in envSchema.shape)) problems.push(`the API knows no setting ${name}`);
  const parsed = envSchema.safeParse(env);
  if (!parsed.success)
    for (const issue of parsed.error.issues) problems.push(`the API refuses its configuration: ${issue.path.join('.')}: ${issue.message}`);
  const httpPort = container.ports?.find((port) => port.name === 'http')?.containerPort;
  if (String(parsed.data?.PORT) !== String(httpPort))
    problems.push(`the API listens on PORT ${parsed.data?.PORT}, its container port http is ${httpPort}`);
  return { config: parsed.data, problems };
}

/** Each Service selects pods, on ports they have. */
function serviceProblems({ services, deployments }: Inventory): string[] {
  const problems: string[] = [];
  for (const service of services) {
    const pods = deployments
      .map((deployment) => deployment.spec!.template)
      .filter((pod) => matches(service.spec?.selector, pod.metadata?.labels));
    if (!pods.length) problems.push(`Service ${service.metadata?.name} selects no pods`);
    for (const port of service.spec?.ports ?? []) {
      const target = port.targetPort ?? port.port;
      const found = pods.some((pod) =>
        pod.spec?.containers.some((c) => c.ports?.some((p) => p.name === target || p.containerPort === target)),
      );
      if (pods.length && !found)
        problems.push(`Service ${service.metadata?.name} sends port ${port.port} to ${target}, which its pods do not have`);
    }
  }
  return problems;
}

/** The gateway's routes, with what each route needs of ingress-nginx; deployed, on PUBLIC_URL's host with TLS. */
function ingressProblems(
  { ingresses, services }: Inventory,
  { apiService, siteService, publicUrl }: { apiService?: string; siteService?: string; publicUrl?: URL | null },
): string[] {
  const problems: string[] = [];
  const routes = routesOf(ingresses);
  for (const route of routes) {
    const service = services.find((candidate) => candidate.metadata?.name === route.service);
    if (!service?.spec?.ports?.some((port) => port.name === route.port || port.port === route.port))
      problems.push(
        `Ingress ${route.ingress.metadata?.name} sends ${route.path} to ${route.service}:${route.port}, which is no Service port`,
      );
  }
  for (const ingress of ingresses) {
    if (ingress.spec?.ingressClassName !== 'nginx')
      problems.push(`Ingress ${ingress.metadata?.name} is not for ingress-nginx (ingressClassName nginx)`);
  }
  const expected: [string, string | undefined][] = [
    ['/api/health', apiService],
    ['/api', apiService],
    ['/ws', apiService],
    ['/metrics', apiService],
    ['/remotes.json', apiService],
    ['/releases/mfe_dashboard/3/remoteEntry.js', apiService],
    ['/status/payments', apiService],
    ['/status/payments/feed.atom', apiService],
    ['/badge/payments.svg', apiService],
    ['/status-pages', siteService],
    ['/status-pages/3', siteService],
    ['/', siteService],
    ['/dashboard', siteService],
    ['/apiary', siteService],
    ...REMOTE_FOLDERS.map((folder): [string, string | undefined] => [`/remotes/${folder}/remoteEntry.js`, siteService]),
  ];
  for (const [requestPath, service] of expected) {
    const routed = routeFor(routes, requestPath)?.service;
    if (!service || routed !== service)
      problems.push(`the Ingress sends ${requestPath} to ${routed ?? 'nothing'}, not ${service ?? 'its Service'}`);
  }
  const annotation = (requestPath: string, name: string) =>
    routeFor(routes, requestPath)?.ingress.metadata?.annotations?.[`nginx.ingress.kubernetes.io/${name}`];
  for (const name of ['proxy-read-timeout', 'proxy-send-timeout']) {
    if (!(Number(annotation('/ws', name)) >= 3600))
      problems.push(`the WebSocket’s ${name} is ${annotation('/ws', name) ?? 'the default 60'} s, not an hour`);
  }
  for (const [requestPath, limit] of BODY_LIMITS) {
    const size = annotation(requestPath, 'proxy-body-size');
    if (!(bytesOf(size) >= limit)) problems.push(`the Ingress takes ${size ?? '1m'} on ${requestPath}, where the API takes ${limit} bytes`);
  }
  if (annotation('/remotes.json', 'default-backend') !== siteService)
    problems.push('/remotes.json has no fallback to the static site’s copy while no API replica is ready');

  if (publicUrl === undefined) return problems;
  if (publicUrl?.protocol !== 'https:') problems.push(`PUBLIC_URL is ${publicUrl ?? 'unset'}, not the site’s https:// address`);
  for (const ingress of ingresses) {
    const hosts = (ingress.spec?.rules ?? []).map((rule) => rule.host);
    const tls = (ingress.spec?.tls ?? []).flatMap((entry) => entry.hosts ?? []);
    if (!hosts.length || hosts.some((host) => host !== publicUrl?.hostname))
      problems.push(
        `Ingress ${ingress.metadata?.name} answers for ${hosts.join(', ') || 'every host'}, not PUBLIC_URL’s ${publicUrl?.hostname}`,
      );
    if (hosts.some((host) => !host || !tls.includes(host))) problems.push(`Ingress ${ingress.metadata?.name} has no TLS for its host`);
  }
  return problems;
}

/** Every problem of a rendered deployment; `deployed`: an overlay meant to run, with its host name and PUBLIC_URL. */
function problemsOf(objects: K8sObject[], { deployed }: { deployed: boolean }): string[] {
  const rendered = inventory(objects);
  const problems = [
    ...objects.flatMap(schemaProblems),
    ...secretProblems(rendered),
    ...podProblems(rendered),
    ...serviceProblems(rendered),
  ];
  const apis = rendered.deployments.filter((deployment) => deployment.metadata?.labels?.['app.kubernetes.io/component'] === 'api');
  if (apis.length !== 1 || !apis[0]!.spec?.template.spec?.containers.length)
    return [...problems, `${apis.length} API Deployments with a container (app.kubernetes.io/component: api), not 1`];
  const api = apis[0]!;
  const { config, problems: configProblems } = apiConfig(api, rendered);
  const apiService = rendered.services.find((service) => matches(service.spec?.selector, api.spec?.template.metadata?.labels));
  const siteService = rendered.services.find((service) => service.metadata?.labels?.['app.kubernetes.io/component'] === 'site');
  const publicUrl = deployed ? (config?.PUBLIC_URL ? new URL(config.PUBLIC_URL) : null) : undefined;
  return [
    ...problems,
    ...apiProblems(api, rendered),
    ...configProblems,
    ...ingressProblems(rendered, { apiService: apiService?.metadata?.name, siteService: siteService?.metadata?.name, publicUrl }),
  ];
}

// ——— the tests ———

describe(`deploy/k8s rendered by kubectl ${KUBECTL_VERSION ?? ''} kustomize`, () => {
  if (!KUBECTL) {
    it('needs kubectl', () => {
      throw new Error(NO_KUBECTL);
    });
    return;
  }
  const base = render('deploy/k8s/base');
  const overlay = render('deploy/k8s/overlays/example');

  it('renders the base: the API, the static site, their Services, budgets and Ingresses, the autoscaler and the settings', () => {
    expect(base.map(nameOf).sort()).toEqual(
      [
        'ConfigMap cbh-config',
        'Deployment cbh-api',
        'Deployment cbh-site',
        'HorizontalPodAutoscaler cbh-api',
        'Ingress cbh-api',
        'Ingress cbh-api-documents',
        'Ingress cbh-api-releases',
        'Ingress cbh-remotes-manifest',
        'Ingress cbh-site',
        'Ingress cbh-ws',
        'PodDisruptionBudget cbh-api',
        'PodDisruptionBudget cbh-site',
        'Service cbh-api',
        'Service cbh-site',
      ].map((name) => (name === 'ConfigMap cbh-config' ? expect.stringMatching(/^ConfigMap cbh-config-\w+$/) : name)),
    );
  });

  it('keeps every rule in the base', () => {
    expect(problemsOf(base, { deployed: false })).toEqual([]);
  });

  it('keeps every rule in the example overlay, which names its host, PUBLIC_URL and TLS', () => {
    expect(problemsOf(overlay, { deployed: true })).toEqual([]);
  });

  it('has the overlay name its images, with a version, and put everything in its namespace', () => {
    const images = ofKind<IDeployment>(overlay, 'Deployment').flatMap((deployment) =>
      containersOf(deployment.spec?.template.spec).map((c) => c.image),
    );
    expect(images.sort()).toEqual([
      'registry.example.com/circuit-breaker-hub/api:0.1.0',
      'registry.example.com/circuit-breaker-hub/site:0.1.0',
    ]);
    expect(new Set(overlay.map((object) => (object.metadata as { namespace?: string }).namespace))).toEqual(
      new Set(['circuit-breaker-hub']),
    );
  });

  it('gives the API time for its whole shutdown after the endpoints are gone', () => {
    expect(DRAIN_SECONDS).toBeGreaterThanOrEqual(10);
    const api = ofKind<IDeployment>(overlay, 'Deployment').find((deployment) => deployment.metadata?.name === 'cbh-api')!;
    const container = api.spec!.template.spec!.containers[0]!;
    expect(api.spec!.template.spec!.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStopSeconds(container) + DRAIN_SECONDS);
  });

  // Debian's kubectl 1.20 (what npm test installs) has kustomize v2.0.3, which refuses fields and folder resources that
  // came later: a kustomization that renders with a newer kubectl only would fail there.
  it.each(['deploy/k8s/base', 'deploy/k8s/overlays/example'])('keeps %s readable by kustomize v2 (kubectl 1.20)', (dir) => {
    const kustomization = parse(read(`${dir}/kustomization.yaml`)) as Record<string, unknown>;
    expect(Object.keys(kustomization).filter((field) => !KUSTOMIZE_V2_FIELDS.includes(field))).toEqual([]);
    const folders = ((kustomization.resources ?? []) as string[]).filter((entry) => !statSync(path.join(ROOT, dir, entry)).isFile());
    expect(folders).toEqual([]);
  });

  /** The rendered overlay, changed by `change` on its copy. */
  const changed = (change: (objects: K8sObject[]) => void) => {
    const copy = structuredClone(overlay);
    change(copy);
    return problemsOf(copy, { deployed: true });
  };
  const find = <T>(objects: K8sObject[], kind: string, name: string) =>
    ofKind<T & K8sObject>(objects, kind).find((object) => object.metadata?.name === name)!;
  const apiContainer = (objects: K8sObject[]) => find<IDeployment>(objects, 'Deployment', 'cbh-api').spec!.template.spec!.containers[0]!;
  const ingressPath = (objects: K8sObject[], ingress: string, requestPath: string) =>
    find<IIngress>(objects, 'Ingress', ingress).spec!.rules![0]!.http!.paths.find((entry) => entry.path === requestPath)!;

  it.each<[string, (objects: K8sObject[]) => void, RegExp]>([
    [
      'one API replica at the least',
      (objects) => (find<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler', 'cbh-api').spec!.minReplicas = 1),
      /API runs 1 replica at the least/,
    ],
    [
      'a replica count beside the autoscaler',
      (objects) => (find<IDeployment>(objects, 'Deployment', 'cbh-api').spec!.replicas = 2),
      /replicas beside its autoscaler/,
    ],
    [
      'an autoscaler aimed elsewhere',
      (objects) => (find<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler', 'cbh-api').spec!.scaleTargetRef.name = 'cbh-site'),
      /no HorizontalPodAutoscaler targets the API/,
    ],
    [
      'readiness elsewhere',
      (objects) => (apiContainer(objects).readinessProbe!.httpGet!.path = '/api/ping'),
      /not ready by GET \/api\/health/,
    ],
    [
      'liveness failing on a database outage',
      (objects) => (apiContainer(objects).livenessProbe = { httpGet: { path: '/api/health', port: 'http' } }),
      /every replica would restart at once/,
    ],
    ['no liveness', (objects) => delete apiContainer(objects).livenessProbe, /liveness does not ask \/api\/health/],
    [
      'a grace period shorter than the drain',
      (objects) => (find<IDeployment>(objects, 'Deployment', 'cbh-api').spec!.template.spec!.terminationGracePeriodSeconds = 15),
      /gets 15 s to stop/,
    ],
    ['no preStop wait', (objects) => delete apiContainer(objects).lifecycle, /waits 0 s before SIGTERM/],
    [
      'no PodDisruptionBudget minimum',
      (objects) => (find<IPodDisruptionBudget>(objects, 'PodDisruptionBudget', 'cbh-api').spec!.minAvailable = 0),
      /lets every pod go/,
    ],
    [
      'a PodDisruptionBudget for other pods',
      (objects) =>
        (find<IPodDisruptionBudget>(objects, 'PodDisruptionBudget', 'cbh-api').spec!.selector = { matchLabels: { app: 'other' } }),
      /no PodDisruptionBudget selects the API pods/,
    ],
    [
      'a container without limits',
      (objects) => delete find<IDeployment>(objects, 'Deployment', 'cbh-site').spec!.template.spec!.containers[0]!.resources!.limits,
      /container site: no cpu in its resources' limits/,
    ],
    ['an image at latest', (objects) => (apiContainer(objects).image = 'registry.example.com/cbh/api:latest'), /latest is no version/],
    ['an image without a tag', (objects) => (apiContainer(objects).image = 'registry.example.com:5000/cbh/api'), /without a tag/],
    [
      'a secret written into the manifest',
      (objects) => (apiContainer(objects).env!.find((variable) => variable.name === 'SESSION_SECRET')!.value = 'x'.repeat(32)),
      /SESSION_SECRET is written in the manifest/,
    ],
    [
      'a secret in the ConfigMap',
      (objects) => (ofKind<IConfigMap>(objects, 'ConfigMap')[0]!.data!.DATABASE_URL = 'postgres://cbh:hunter2@db/cbh'),
      /holds DATABASE_URL/,
    ],
    [
      'a Secret with its values',
      (objects) =>
        objects.push({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'cbh-secrets' },
          stringData: { SESSION_SECRET: 'x' },
        } as K8sObject),
      /Secret cbh-secrets carries values/,
    ],
    [
      'the database optional',
      (objects) => (apiContainer(objects).env![0]!.valueFrom!.secretKeyRef!.optional = true),
      /DATABASE_URL is optional/,
    ],
    [
      'root allowed',
      (objects) => (find<IDeployment>(objects, 'Deployment', 'cbh-site').spec!.template.spec!.securityContext!.runAsNonRoot = false),
      /runAsNonRoot is not set/,
    ],
    [
      '/ws to the static site',
      (objects) => (ingressPath(objects, 'cbh-ws', '/ws').backend.service!.name = 'cbh-site'),
      /sends \/ws to cbh-site, not cbh-api/,
    ],
    [
      '/remotes.json left to the static site',
      (objects) =>
        objects.splice(
          objects.findIndex((object) => nameOf(object) === 'Ingress cbh-remotes-manifest'),
          1,
        ),
      /sends \/remotes.json to cbh-site, not cbh-api/,
    ],
    [
      '/api to a Service port that does not exist',
      (objects) => (ingressPath(objects, 'cbh-api', '/api').backend.service!.port = { name: 'web' }),
      /sends \/api to cbh-api:web, which is no Service port/,
    ],
    [
      'the WebSocket at the default timeout',
      (objects) =>
        delete find<IIngress>(objects, 'Ingress', 'cbh-ws').metadata!.annotations!['nginx.ingress.kubernetes.io/proxy-read-timeout'],
      /proxy-read-timeout is the default 60 s/,
    ],
    [
      'release uploads refused at the Ingress',
      (objects) =>
        (find<IIngress>(objects, 'Ingress', 'cbh-api-releases').metadata!.annotations!['nginx.ingress.kubernetes.io/proxy-body-size'] =
          '10m'),
      /takes 10m on \/api\/releases\/mfe_dashboard\/versions/,
    ],
    [
      'a setting the API does not know',
      (objects) => (ofKind<IConfigMap>(objects, 'ConfigMap')[0]!.data!.PUBLIC_ULR = 'https://cbh.example.com'),
      /knows no setting PUBLIC_ULR/,
    ],
    [
      'a setting the API refuses',
      (objects) => (ofKind<IConfigMap>(objects, 'ConfigMap')[0]!.data!.TRUST_PROXY = 'everyone!'),
      /refuses its configuration: TRUST_PROXY/,
    ],
    [
      'PUBLIC_URL beside the host',
      (objects) => (ofKind<IConfigMap>(objects, 'ConfigMap')[0]!.data!.PUBLIC_URL = 'https://elsewhere.example.com'),
      /not PUBLIC_URL’s elsewhere/,
    ],
    [
      'an object the schema refuses',
      (objects) =>
        (find<IDeployment>(objects, 'Deployment', 'cbh-site').spec!.template.spec!.containers[0]!.ports![0]!.containerPort =
          '8080' as never),
      /Deployment cbh-site does not match the Kubernetes schema: .*containerPort must be integer/,
    ],
  ])('catches %s', (_, change, problem) => {
    expect(changed(change)).toContainEqual(expect.stringMatching(problem));
  });

  it('tells secret names from the others', () => {
    const secret = [
      'SESSION_SECRET',
      'OIDC_CLIENT_SECRET',
      'ADMIN_PASSWORD',
      'DEMO_PASSWORD',
      'MASTER_KEY',
      'METRICS_TOKEN',
      'DATABASE_URL',
      'SMTP_URL',
    ];
    const plain = ['TOKEN_RATE_LIMIT', 'PUBLIC_URL', 'OIDC_CLIENT_ID', 'PORT', 'KEYCLOAK_REALM'];
    expect(secret.filter((name) => !SECRET_NAME.test(name))).toEqual([]);
    expect(plain.filter((name) => SECRET_NAME.test(name))).toEqual([]);
  });

  describe('the API’s liveness command, run as the kubelet runs it', () => {
    const command = apiContainer(overlay).livenessProbe!.exec!.command!;
    const timeoutSeconds = apiContainer(overlay).livenessProbe!.timeoutSeconds!;
    /** The probe's exit code against a server on `port`, with PORT as the ConfigMap sets it. */
    const probe = (port: number) =>
      new Promise<number | null>((resolve) => {
        expect(command[0]).toBe('node');
        const child = spawn(process.execPath, command.slice(1), { env: { PORT: String(port) }, stdio: 'ignore' });
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutSeconds * 1000);
        child.once('exit', (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });
    const serve = async (handler: http.RequestListener) => {
      const server = http.createServer(handler);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    };

    it.each([200, 503])('passes when /api/health answers %i', async (status) => {
      const paths: string[] = [];
      const server = await serve((request, response) => {
        paths.push(request.url!);
        response.writeHead(status).end('{}');
      });
      try {
        expect(await probe((server.address() as AddressInfo).port)).toBe(0);
        expect(paths).toEqual(['/api/health']);
      } finally {
        server.close();
      }
    });

    it('fails when nothing listens', async () => {
      expect(await probe(await freePort())).toBe(1);
    });

    it('fails within its timeout when the process no longer answers', async () => {
      const server = await serve(() => {});
      try {
        expect(await probe((server.address() as AddressInfo).port)).toBe(1);
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });
  });
});

// ——— the static site's image ———

const DOCKERFILE = read('deploy/site.Dockerfile');
/** The image's COPY lines: source in the build context → path in the image. */
const COPIES = [...DOCKERFILE.matchAll(/^COPY (\S+) (\S+)$/gm)].map(([, source, target]) => ({ source: source!, target: target! }));
const HTML = '/usr/share/nginx/html';

describe('deploy/site.Dockerfile', () => {
  it('starts from a pinned nginx and runs as its unprivileged user', () => {
    expect(DOCKERFILE).toMatch(/^FROM nginx:\d+\.\d+\.\d+-alpine$/m);
    expect(DOCKERFILE).toMatch(/^USER 101$/m);
    const site = read('deploy/k8s/base/site-deployment.yaml');
    expect(site).toContain('runAsUser: 101');
    expect(site).toContain('containerPort: 8080');
    expect(read('deploy/site.nginx.conf')).toMatch(/^\s*listen 8080;$/m);
  });

  it('puts the shell at / and each remote of remotes.json at /remotes/<folder>/, beside the nginx configuration', () => {
    expect(COPIES).toEqual(
      expect.arrayContaining([
        { source: 'deploy/site.nginx.conf', target: '/etc/nginx/nginx.conf' },
        { source: 'deploy/nginx/security-headers.conf', target: '/etc/nginx/snippets/security-headers.conf' },
        { source: 'dist/shell/', target: `${HTML}/` },
        { source: 'remotes.json', target: `${HTML}/remotes.json` },
        ...REMOTE_FOLDERS.map((folder) => ({ source: `dist/${folder}/`, target: `${HTML}/remotes/${folder}/` })),
      ]),
    );
    expect(COPIES.filter(({ source }) => source.startsWith('dist/mfe-')).length).toBe(REMOTE_FOLDERS.length);
  });

  it('sends the builder what it copies, although the repository’s .dockerignore keeps dist/ out', () => {
    const patterns = read('deploy/site.Dockerfile.dockerignore')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    const pattern = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`);
    const included = (file: string) =>
      patterns.reduce((kept, line) => (pattern(line.replace(/^!/, '')).test(file) ? line.startsWith('!') : kept), true);
    for (const { source } of COPIES) expect([source, included(source.replace(/\/$/, ''))]).toEqual([source, true]);
    expect(included('api/src/main.ts')).toBe(false);
    expect(included('dist/api')).toBe(false);
  });
});

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate)) ?? null;
const SKIPPED = 'skipped: nginx is not installed (apt-get install -y nginx; npm test installs it as root)';
if (!NGINX) console.warn(`deploy/k8s.spec.ts: the site's nginx test ${SKIPPED}`);

/** `text` with `from` replaced, which must be there: the test must not run the image's paths by mistake. */
function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`deploy/site.nginx.conf no longer has ${from}: update this test`);
  return text.replaceAll(from, to);
}

(NGINX ? describe : describe.skip)(`the site image’s nginx, run over the image’s layout${NGINX ? '' : ` — ${SKIPPED}`}`, () => {
  let dir: string;
  let site: string;
  let nginx: ReturnType<typeof spawn>;
  let origin: string;
  const headers = [...read('deploy/nginx/security-headers.conf').matchAll(/^add_header (\S+) "(.*)" always;$/gm)].map(([, name, value]) => [
    name!.toLowerCase(),
    value!,
  ]);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cbh-site-image-'));
    // a build in small: the shell's page and a hashed chunk (with its .gz), each remote's entry and a hashed chunk
    const build = path.join(dir, 'context');
    const files: Record<string, string> = {
      'dist/shell/index.html': '<!doctype html><title>Circuit Breaker Hub</title>',
      'dist/shell/main.0123456789.js': 'console.log("shell")',
      'dist/shell/main.0123456789.js.gz': 'gzipped',
    };
    for (const folder of REMOTE_FOLDERS) {
      files[`dist/${folder}/remoteEntry.js`] = `var ${folder.replace('-', '_')};`;
      files[`dist/${folder}/749.abcdef0123.js`] = 'console.log("chunk")';
    }
    for (const [file, body] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(build, file)), { recursive: true });
      writeFileSync(path.join(build, file), body);
    }
    cpSync(path.join(ROOT, 'remotes.json'), path.join(build, 'remotes.json'));
    // the files where the Dockerfile puts them
    site = path.join(dir, 'html');
    for (const { source, target } of COPIES.filter((copy) => copy.target.startsWith(HTML))) {
      cpSync(path.join(build, source), path.join(site, target.slice(HTML.length)), { recursive: true });
    }
    const port = await freePort();
    let conf = read('deploy/site.nginx.conf');
    conf = replaced(conf, 'listen 8080;', `listen 127.0.0.1:${port};`);
    conf = replaced(conf, '/tmp/', `${dir}/`);
    conf = replaced(conf, `root ${HTML};`, `root ${site};`);
    conf = replaced(conf, '/etc/nginx/snippets/security-headers.conf', path.join(ROOT, 'deploy/nginx/security-headers.conf'));
    conf = replaced(conf, 'access_log /dev/stdout;', 'access_log off;');
    // workers as root when the tests run as root, so they read a site in any folder
    if (process.getuid?.() === 0) conf = `user root;\n${conf}`;
    writeFileSync(path.join(dir, 'nginx.conf'), conf);
    const args = ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'];
    const check = spawnSync(NGINX!, [...args, '-t'], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx refused deploy/site.nginx.conf:\n${check.stderr}`);
    nginx = spawn(NGINX!, [...args, '-g', 'daemon off;'], { stdio: 'ignore' });
    origin = `http://127.0.0.1:${port}`;
    for (let attempt = 0; ; attempt++) {
      try {
        await fetch(origin);
        break;
      } catch (error) {
        if (attempt === 100 || nginx.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });

  afterAll(async () => {
    if (nginx?.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['the shell’s page', '/', 200, 'no-cache', 'Circuit Breaker Hub'],
    ['the shell’s page for a route of the browser’s', '/dashboard/breakers', 200, 'no-cache', 'Circuit Breaker Hub'],
    ['the shell’s hashed chunk', '/main.0123456789.js', 200, 'public, max-age=31536000, immutable', 'console.log("shell")'],
    ['the deployment’s remotes.json', '/remotes.json', 200, 'no-cache', '"remotes"'],
    ['a remote’s entry', '/remotes/mfe-dashboard/remoteEntry.js', 200, 'no-cache', 'var mfe_dashboard;'],
    ['a remote’s hashed chunk', '/remotes/mfe-patterns/749.abcdef0123.js', 200, 'public, max-age=31536000, immutable', 'chunk'],
    // add_header without `always` leaves error answers alone; the security headers have it
    ['a remote’s missing file, as a 404', '/remotes/mfe-users/missing.js', 404, null, ''],
  ])('serves %s with its cache rule and the site’s security headers', async (_, url, status, cacheControl, body) => {
    const response = await fetch(`${origin}${url}`, { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe(cacheControl);
    for (const [name, value] of headers) expect([name, response.headers.get(name!)]).toEqual([name, value]);
    expect(await response.text()).toContain(body);
  });

  it('sends the build’s .gz to a browser that takes gzip', async () => {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${origin}/main.0123456789.js`, { headers: { 'accept-encoding': 'gzip' } }, resolve).on('error', reject),
    );
    const body = await new Promise<string>((resolve) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
    });
    // the file the build compressed, not one compressed now
    expect([response.statusCode, body]).toEqual([200, 'gzipped']);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('Accept-Encoding');
  });
});
