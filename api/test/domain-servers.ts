// @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata API loaded first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import dns2 from 'dns2';
import { webcrypto } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

/**
 * Real servers on loopback for the domain checks: a DNS server answering from a table the test changes, an HTTPS
 * server presenting certificates the test makes (per SNI name) and an HTTP server that can be taken down and
 * brought back. Names live under a reserved suffix (.test), so nothing here can be mistaken for a real domain.
 */

export const TEST_SUFFIX = 'cbhub.test';

export type TestRecordType = 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'NS';

export interface TestRecord {
  type: TestRecordType;
  /** As the resolver reports it: an address, a target name, "<priority> <exchange>" for MX, the text for TXT. */
  value: string;
  ttl: number;
}

export interface CertificateSpec {
  /** The name written into the certificate (default: the name it is served for); another name makes a mismatch. */
  hostname?: string;
  /** Default: a day ago. */
  notBefore?: Date;
  /** Default: in 90 days. */
  notAfter?: Date;
  /** test-ca: the private test CA; acme-ca: a test CA named like Let's Encrypt; self: self-signed. */
  issuer?: 'test-ca' | 'acme-ca' | 'self';
}

export interface IssuedCertificate {
  pem: string;
  notBefore: Date;
  notAfter: Date;
}

export interface SiteBehaviour {
  /** Status of every answer (default 200). */
  status?: number;
  /** Wait before answering, to make a check time out or count as slow. */
  delayMs?: number;
}

export interface SwitchableServer {
  port: number;
  isUp(): boolean;
  /** Stops listening and drops open connections: connections are refused until up(). */
  down(): Promise<void>;
  up(): Promise<void>;
}

export interface DomainServers {
  suffix: string;
  /** `127.0.0.1:<port>`, as DNS_SERVERS takes it. */
  dnsServer: string;
  dnsPort: number;
  https: SwitchableServer;
  http: SwitchableServer;
  /** PEM of the test CAs (private and ACME-named), for NODE_EXTRA_CA_CERTS or a check's extra `ca`. */
  caPem: string;
  /** caPem written to a file, for a child process's NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** The organisation of the private test CA, as a certificate check reports it. */
  caOrganisation: string;
  acmeOrganisation: string;
  addRecord(name: string, type: TestRecordType, value: string, ttl?: number): void;
  /** Removes the records of a name of one type (or of one value), or every record of the name. */
  removeRecord(name: string, type?: TestRecordType, value?: string): void;
  records(name: string): TestRecord[];
  setCertificate(servedFor: string, spec?: CertificateSpec): Promise<IssuedCertificate>;
  setSite(hostname: string, behaviour: SiteBehaviour): void;
  /** An A record (127.0.0.1 unless given) and, unless false, a certificate for a name. */
  addHost(name: string, options?: { address?: string; certificate?: CertificateSpec | false }): Promise<IssuedCertificate | null>;
  stop(): Promise<void>;
}

const DAY_MS = 86_400_000;
const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const subtle = webcrypto.subtle as unknown as SubtleCrypto;
x509.cryptoProvider.set(webcrypto as unknown as Crypto);

interface Authority {
  certificate: x509.X509Certificate;
  keys: CryptoKeyPair;
}

const generateKeys = () => subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;

async function privateKeyPem(keys: CryptoKeyPair): Promise<string> {
  return x509.PemConverter.encode(await subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
}

const serial = () =>
  Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');

async function makeAuthority(name: string): Promise<Authority> {
  const keys = await generateKeys();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name,
    notBefore: new Date(Date.now() - 30 * DAY_MS),
    notAfter: new Date(Date.now() + 3650 * DAY_MS),
    keys,
    signingAlgorithm: KEY_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate, keys };
}

export async function makeLeaf(
  hostname: string,
  notBefore: Date,
  notAfter: Date,
  authority: Authority | null,
): Promise<{ certificate: x509.X509Certificate; keyPem: string }> {
  const keys = await generateKeys();
  const leafExtensions = [
    new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: hostname }]),
    new x509.BasicConstraintsExtension(false),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
  ];
  const certificate = authority
    ? await x509.X509CertificateGenerator.create({
        serialNumber: serial(),
        subject: `CN=${hostname}`,
        issuer: authority.certificate.subject,
        notBefore,
        notAfter,
        publicKey: keys.publicKey,
        signingKey: authority.keys.privateKey,
        signingAlgorithm: KEY_ALGORITHM,
        extensions: [...leafExtensions, await x509.AuthorityKeyIdentifierExtension.create(authority.keys.publicKey)],
      })
    : await x509.X509CertificateGenerator.createSelfSigned({
        serialNumber: serial(),
        name: `CN=${hostname}`,
        notBefore,
        notAfter,
        keys,
        signingAlgorithm: KEY_ALGORITHM,
        extensions: leafExtensions,
      });
  return { certificate, keyPem: await privateKeyPem(keys) };
}

const normalise = (name: string) => name.trim().replace(/\.$/, '').toLowerCase();

function listen(server: net.Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

function close(server: net.Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  (server as http.Server).closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function switchable(server: http.Server): Promise<SwitchableServer> {
  const port = await listen(server);
  return {
    port,
    isUp: () => server.listening,
    down: () => close(server),
    // The same port again, so a check configured with it finds the server back.
    up: async () => {
      if (!server.listening) await listen(server, port);
    },
  };
}

/** A TCP port nothing listens on (bound once, then released), for "connection refused". */
export async function unusedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

/** A UDP port that takes DNS queries and never answers, for a resolver's time-out. */
export async function startSilentDnsServer(): Promise<{ dnsServer: string; stop(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', () => undefined);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return { dnsServer: `127.0.0.1:${port}`, stop: () => new Promise((resolve) => socket.close(() => resolve())) };
}

const { Packet } = dns2;
const RECORD_TYPE_CODES: Record<TestRecordType, number> = {
  A: Packet.TYPE.A,
  AAAA: Packet.TYPE.AAAA,
  CNAME: Packet.TYPE.CNAME,
  MX: Packet.TYPE.MX,
  TXT: Packet.TYPE.TXT,
  NS: Packet.TYPE.NS,
};

function toResource(name: string, record: TestRecord): Partial<dns2.Packet.Resource> {
  const base = { name, type: RECORD_TYPE_CODES[record.type], class: Packet.CLASS.IN, ttl: record.ttl };
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return { ...base, address: record.value };
    case 'CNAME':
      return { ...base, domain: record.value };
    case 'NS':
      return { ...base, ns: record.value };
    case 'MX': {
      const [priority, exchange] = record.value.split(/\s+/);
      return { ...base, priority: Number(priority), exchange };
    }
    case 'TXT': {
      // One character-string holds at most 255 bytes; longer text is sent as several, as real zones do.
      const bytes = Buffer.from(record.value, 'utf8');
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length || i === 0; i += 255) chunks.push(bytes.subarray(i, i + 255));
      return { ...base, data: chunks.map((chunk) => chunk.toString('utf8')) };
    }
  }
}

export async function startDomainServers(options: { suffix?: string } = {}): Promise<DomainServers> {
  const suffix = normalise(options.suffix ?? TEST_SUFFIX);
  const table = new Map<string, TestRecord[]>();
  const inZone = (name: string) => name === suffix || name.endsWith(`.${suffix}`);

  const dnsServer = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      if (!question) {
        response.header.rcode = Packet.RCODE.FORMERR;
        void send(response);
        return;
      }
      const name = normalise(question.name);
      if (!inZone(name)) {
        response.header.rcode = Packet.RCODE.REFUSED;
        void send(response);
        return;
      }
      response.header.aa = 1;
      // Follow CNAMEs within the zone, answering with the chain and the target's records, as a real server does.
      let current = name;
      for (let hops = 0; hops < 8; hops++) {
        const records = table.get(current);
        if (!records || records.length === 0) {
          if (hops === 0) response.header.rcode = Packet.RCODE.NXDOMAIN;
          break;
        }
        const alias = records.find((record) => record.type === 'CNAME');
        if (alias && question.type !== Packet.TYPE.CNAME) {
          response.answers.push(toResource(current, alias) as dns2.Packet.Resource);
          current = normalise(alias.value);
          continue;
        }
        for (const record of records) {
          if (RECORD_TYPE_CODES[record.type] === question.type) response.answers.push(toResource(current, record) as dns2.Packet.Resource);
        }
        break;
      }
      void send(response);
    },
  });
  const dnsAddresses = await dnsServer.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const dnsPort = dnsAddresses.udp!.port;

  const testCa = await makeAuthority('CN=CBHub Test Root, O=CBHub Test CA');
  const acmeCa = await makeAuthority("CN=CBHub Test R3, O=Let's Encrypt (test)");
  const caPem = [testCa, acmeCa].map((ca) => ca.certificate.toString('pem')).join('\n') + '\n';
  const caDir = mkdtempSync(path.join(tmpdir(), 'cbh-domain-ca-'));
  const caFile = path.join(caDir, 'ca.pem');
  writeFileSync(caFile, caPem);

  const contexts = new Map<string, tls.SecureContext>();
  const issue = async (servedFor: string, spec: CertificateSpec = {}) => {
    const issuer = spec.issuer ?? 'test-ca';
    const { certificate, keyPem } = await makeLeaf(
      spec.hostname ?? servedFor,
      spec.notBefore ?? new Date(Date.now() - DAY_MS),
      spec.notAfter ?? new Date(Date.now() + 90 * DAY_MS),
      issuer === 'self' ? null : issuer === 'acme-ca' ? acmeCa : testCa,
    );
    const pem = certificate.toString('pem');
    return {
      key: keyPem,
      context: tls.createSecureContext({ key: keyPem, cert: pem }),
      issued: { pem, notBefore: certificate.notBefore, notAfter: certificate.notAfter },
    };
  };
  // Served when the client names no host or one without a certificate of its own.
  const fallback = await issue('localhost');

  const sites = new Map<string, SiteBehaviour>();
  const answer: http.RequestListener = (request, response) => {
    const host = normalise((request.headers.host ?? '').replace(/:\d+$/, ''));
    const { status = 200, delayMs = 0 } = sites.get(host) ?? {};
    const timer = setTimeout(() => response.writeHead(status, { 'content-type': 'text/plain' }).end(`${status} ${host}\n`), delayMs);
    response.on('close', () => clearTimeout(timer));
  };
  const httpsServer = https.createServer(
    {
      SNICallback: (servername, callback) => callback(null, contexts.get(normalise(servername)) ?? fallback.context),
      // A client that names no host gets the fallback certificate too.
      key: fallback.key,
      cert: fallback.issued.pem,
    },
    answer,
  );
  const httpServer = http.createServer(answer);
  const httpsSwitch = await switchable(httpsServer);
  const httpSwitch = await switchable(httpServer);

  const servers: DomainServers = {
    suffix,
    dnsServer: `127.0.0.1:${dnsPort}`,
    dnsPort,
    https: httpsSwitch,
    http: httpSwitch,
    caPem,
    caFile,
    caOrganisation: 'CBHub Test CA',
    acmeOrganisation: "Let's Encrypt (test)",
    addRecord(name, type, value, ttl = 300) {
      const key = normalise(name);
      table.set(key, [...(table.get(key) ?? []), { type, value, ttl }]);
    },
    removeRecord(name, type, value) {
      const key = normalise(name);
      const kept = (table.get(key) ?? []).filter(
        (record) => (type && record.type !== type) || (value !== undefined && record.value !== value),
      );
      if (kept.length > 0) table.set(key, kept);
      else table.delete(key);
    },
    records: (name) => [...(table.get(normalise(name)) ?? [])],
    async setCertificate(servedFor, spec) {
      const { context, issued } = await issue(servedFor, spec);
      contexts.set(normalise(servedFor), context);
      return issued;
    },
    setSite(hostname, behaviour) {
      sites.set(normalise(hostname), behaviour);
    },
    async addHost(name, hostOptions = {}) {
      servers.addRecord(name, hostOptions.address && net.isIPv6(hostOptions.address) ? 'AAAA' : 'A', hostOptions.address ?? '127.0.0.1');
      return hostOptions.certificate === false ? null : servers.setCertificate(name, hostOptions.certificate);
    },
    async stop() {
      await Promise.all([close(httpsServer), close(httpServer), dnsServer.close()]);
      rmSync(caDir, { recursive: true, force: true });
    },
  };
  return servers;
}

/**
 * The API settings that point its domain checks at these servers, a round every `intervalSeconds`; with `trustCa`,
 * the test CA joins Node's trust store too (read at start: for an API run as its own process).
 */
export function domainCheckEnv(servers: DomainServers, { intervalSeconds, trustCa }: { intervalSeconds: number; trustCa: boolean }) {
  return {
    DNS_SERVERS: servers.dnsServer,
    DOMAIN_HTTPS_PORT: String(servers.https.port),
    DOMAIN_HTTP_PORT: String(servers.http.port),
    DOMAIN_CHECK_INTERVAL: String(intervalSeconds),
    ALLOW_PRIVATE_TARGETS: '127.0.0.0/8',
    ...(trustCa ? { NODE_EXTRA_CA_CERTS: servers.caFile } : {}),
  };
}
