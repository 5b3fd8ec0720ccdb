// A real OpenID Connect provider (oidc-provider, with its development login and consent forms) on loopback, for
// the API's tests. It runs in a process of its own because the package is an ES module that jest does not load.
// Its parent names the client's redirect URI in argv and sets each account's claims over IPC.
import http from 'node:http';
import Provider from 'oidc-provider';

const { redirectUri, clientId, clientSecret } = JSON.parse(process.argv[2]);
/** sub → the claims the provider tells about that account (email, email_verified, …) */
const accounts = new Map();

const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    cookies: { keys: ['cookie-key-of-the-test-provider'] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...accounts.get(sub) }) }),
  });
  server.on('request', provider.callback());
  process.on('message', (message) => {
    accounts.set(message.sub, message.claims);
    process.send({ accountSet: message.sub });
  });
  process.send({ issuer });
});
process.on('disconnect', () => process.exit(0));
