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
import { REMOTE_FOLDERS } from '../tools/testing/site-layout';
import {
  BODY_LIMITS,
  DRAIN_SECONDS,
  nameOf,
  ofKind,
  PLACEHOLDER_SECRETS,
  REQUIRED_SECRETS,
  SECRET_NAME,
  SECRET_REF,
  type K8sObject,
} from './k8s.test-kit';

/**
 * The rules a deployment of the hub needs, read off its rendered objects: each object against the Kubernetes schemas
 * (kubernetes-models), then secrets, pods, Services, the API's replicas, probes, drain and configuration (read by the
 * API's own schema), and the Ingress's routes. `problemsOf` lists what a rendering breaks, each problem in words.
 */
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

export const containersOf = (spec: IPodSpec | undefined): IContainer[] => [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];

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
export function preStopSeconds(container: IContainer): number {
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
    ['/api/agent/stream', apiService],
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
    // an agent reports at most a minute apart
    if (!(Number(annotation('/api/agent/stream', name)) >= 60))
      problems.push(`the agents' stream's ${name} is ${annotation('/api/agent/stream', name) ?? 'the default 60'} s, not past a minute`);
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
export function problemsOf(objects: K8sObject[], { deployed }: { deployed: boolean }): string[] {
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
