import net from 'node:net';

/**
 * DNS_SERVERS: comma-separated `host:port` entries with an IP address as host (`[::1]:5353` for IPv6, port 53
 * when left out). Empty: null, meaning the system's resolvers. Throws with a message naming the bad entry.
 */
export function parseDnsServers(value: string | undefined): string[] | null {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  return entries.map((entry) => {
    let host: string;
    let port = '53';
    const bracketed = entry.match(/^\[([^\]]+)\](?::(\d+))?$/);
    if (bracketed) {
      host = bracketed[1]!;
      port = bracketed[2] ?? port;
    } else if (net.isIPv6(entry)) {
      host = entry;
    } else {
      const [name, portText, ...rest] = entry.split(':');
      if (rest.length > 0) throw new Error(`DNS_SERVERS: "${entry}" — write an IPv6 server as [address]:port`);
      host = name!;
      port = portText ?? port;
    }
    const portNumber = Number(port);
    // c-ares takes addresses only: a host name would need a resolver to find the resolver.
    if (!net.isIP(host)) throw new Error(`DNS_SERVERS: "${entry}" is not an IP address with an optional :port`);
    if (!/^\d+$/.test(port) || portNumber < 1 || portNumber > 65535) throw new Error(`DNS_SERVERS: "${entry}" has a bad port`);
    return net.isIPv6(host) ? `[${host}]:${portNumber}` : `${host}:${portNumber}`;
  });
}
