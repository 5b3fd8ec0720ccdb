import tls from 'node:tls';

/** By the extra CAs trusted (PEM, joined): production has one entry, Node's store ('default'); tests add their own CA. */
const contexts = new Map<string, tls.SecureContext>();

/**
 * The TLS context the checks' connections share, one per set of trusted CAs. OpenSSL 3 spends about as much CPU
 * building a context as on a client's handshake, and a context carries nothing of one connection: the server name,
 * the verification result and the session are the connection's, and Node keeps no client sessions in it, so every
 * check still makes a full handshake and sees the certificate.
 */
export function sharedSecureContext(extraCa?: readonly string[]): tls.SecureContext {
  // the default context is its own entry: one built with `ca`, even an empty list, leaves out NODE_EXTRA_CA_CERTS
  const key = extraCa === undefined ? 'default' : `ca:${extraCa.join('\n')}`;
  let context = contexts.get(key);
  if (!context) {
    // passing ca replaces Node's roots; keep them beside the extra ones
    context = tls.createSecureContext(extraCa ? { ca: [...tls.rootCertificates, ...extraCa] } : {});
    contexts.set(key, context);
  }
  return context;
}
