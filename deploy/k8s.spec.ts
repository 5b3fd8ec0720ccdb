import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { freePort } from '../tools/testing/free-port.mjs';
import { containersOf, preStopSeconds, problemsOf } from './k8s-rules.test-kit';
import {
  DRAIN_SECONDS,
  KUBECTL,
  KUBECTL_VERSION,
  KUSTOMIZE_V2_FIELDS,
  nameOf,
  NO_KUBECTL,
  ofKind,
  read,
  render,
  ROOT,
  SECRET_NAME,
  type K8sObject,
} from './k8s.test-kit';

/**
 * deploy/k8s rendered offline by `kubectl kustomize` (the base and the example overlay): both keep every rule a
 * deployment of the hub needs (k8s-rules.test-kit.ts), each rule is shown to catch a broken copy of the overlay, the
 * kustomizations stay readable by Debian's kustomize v2, and the API's liveness command is run as the kubelet runs it.
 */
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
