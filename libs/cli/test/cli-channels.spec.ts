import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { RULE_DEFAULTS, type ChannelView, type ConfigDocument, type TestDeliveryView } from '@cbh/contracts';
import { apiForThisFile } from '../../../api/test/test-api';
import { startWebhookReceiver } from '../../../api/test/webhook-receiver';
import { cliForThisFile, diffLines } from './cli-api.test-kit';

/**
 * `cbh` as a CI job runs it, against the real API on PostgreSQL: notification channels in the configuration file, their
 * URL and secret filled in from the job's environment, each channel only from its own variables.
 */
// channels may call a receiver on loopback
const spec = apiForThisFile({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
const { work, cbh, writeYaml } = cliForThisFile(spec);

describe('notification channels in the file', () => {
  const SECRET = 'whsec-ci-and-the-receiver-share';

  it('fills in ${env:…} from its own environment; a variable left unset keeps what the hub has, and is refused for a new channel', async () => {
    const receiver = await startWebhookReceiver({ secret: SECRET });
    try {
      const document = parse((await cbh(['export', '--format', 'yaml'])).stdout) as ConfigDocument;
      expect(document.channels).toEqual([]);
      document.channels = [
        { name: 'CI hook', type: 'webhook', url: '${env:CBH_CHANNEL_CI_HOOK_URL}', secret: '${env:CBH_CHANNEL_CI_HOOK_SECRET}' },
      ];
      document.notificationRules = [
        {
          name: 'CI opened',
          enabled: true,
          events: ['breaker.opened'],
          channels: ['ci HOOK'],
          breakers: ['Search API'],
          breakerTypes: [],
          domains: [],
          severities: [],
          ...RULE_DEFAULTS,
        },
      ];
      const { line } = writeYaml('notify.yaml', document, 'url: ${env:CBH_CHANNEL_CI_HOOK_URL}');

      const unset = await cbh(['diff', 'notify.yaml']);
      expect(unset.code).toBe(1);
      expect(unset.stderr).toContain(
        `notify.yaml:${line}:10: channels[0].url: CBH_CHANNEL_CI_HOOK_URL is not set, so the hub keeps the value it has (a new channel needs one)\n`,
      );
      expect(unset.stderr).toContain(
        `cbh: The hub refused notify.yaml:\nnotify.yaml:${line}:10: channels[0].url: \${env:CBH_CHANNEL_CI_HOOK_URL} is not set where the document was read: set it or give the URL\n`,
      );

      const env = { CBH_CHANNEL_CI_HOOK_URL: `${receiver.url}?from=ci`, CBH_CHANNEL_CI_HOOK_SECRET: SECRET };
      const applied = await cbh(['apply', 'notify.yaml'], env);
      expect(applied.code).toBe(0);
      expect(diffLines(applied)).toEqual(['+ channel CI hook', '+ notificationRule CI opened']);
      expect(applied.stdout + applied.stderr).not.toContain(SECRET);

      // the hub has the URL and the secret from the environment: its test delivery reaches the receiver, signed
      const channels: ChannelView[] = await (await spec.api.call('/api/notification-channels', { cookie: spec.admin })).json();
      const channel = channels.find((each) => each.name === 'CI hook')!;
      const test = await spec.api.call(`/api/notification-channels/${channel.id}/test`, { method: 'POST', cookie: spec.admin });
      expect(((await test.json()) as TestDeliveryView).status).toBe('delivered');
      expect(receiver.received.at(-1)).toMatchObject({ path: '/hook?from=ci', signatureValid: true });

      // the export holds references, never the values; it diffs to nothing with the variables set or not
      const exported = await cbh(['export', '--format', 'yaml']);
      expect(exported.stdout).toContain('    url: ${env:CBH_CHANNEL_CI_HOOK_URL}\n    secret: ${env:CBH_CHANNEL_CI_HOOK_SECRET}\n');
      expect(exported.stdout).not.toContain(receiver.url);
      expect(exported.stdout).not.toContain(SECRET);
      writeFileSync(path.join(work, 'exported.yaml'), exported.stdout);
      expect((await cbh(['diff', 'exported.yaml'], env)).code).toBe(0);
      const kept = await cbh(['diff', 'exported.yaml']);
      expect(kept.code).toBe(0);
      expect(kept.stderr).toContain('channels[0].secret: CBH_CHANNEL_CI_HOOK_SECRET is not set, so the hub keeps the value it has');

      // a URL changed in the environment is an update of the channel's url, its value never printed
      const moved = await cbh(['diff', 'exported.yaml'], { ...env, CBH_CHANNEL_CI_HOOK_URL: `${receiver.url}?from=elsewhere` });
      expect(moved.code).toBe(2);
      expect(diffLines(moved)).toEqual(['~ channel CI hook: url']);
      expect(moved.stdout + moved.stderr).not.toContain('elsewhere');
    } finally {
      await receiver.stop();
    }
  });

  it("fills each channel's url and secret only from its own CBH_CHANNEL_<NAME>_URL and _SECRET: another channel's is refused before anything is sent", async () => {
    const env = { CBH_CHANNEL_OPS_URL: 'http://127.0.0.1:9/ops-credential', CBH_CHANNEL_OPS_SECRET: 'the-ops-secret' };
    const document = (
      evil: { url: string; secret?: string },
      ops = { url: '${env:CBH_CHANNEL_OPS_URL}', secret: '${env:CBH_CHANNEL_OPS_SECRET}' },
    ) => ({
      version: 1,
      breakers: [],
      services: [],
      domains: [],
      channels: [
        { name: 'Ops', type: 'webhook', ...ops },
        { name: 'Pull request', type: 'webhook', ...evil },
      ],
    });
    const attempts: [string, object, string][] = [
      // a pull request's channel pointing at its author's receiver, signed with the Ops channel's secret
      [
        'channels[1].secret',
        document({ url: 'https://attacker.example/hook', secret: '${env:CBH_CHANNEL_OPS_SECRET}' }),
        "cbh fills in here only the channel's own CBH_CHANNEL_PULL_REQUEST_SECRET, not CBH_CHANNEL_OPS_SECRET",
      ],
      [
        'channels[1].url',
        document({ url: '${env:CBH_CHANNEL_OPS_URL}' }),
        "the channel's own CBH_CHANNEL_PULL_REQUEST_URL, not CBH_CHANNEL_OPS_URL",
      ],
      // a channel's own secret where its URL goes (the hub's refusal would show it)
      [
        'channels[0].url',
        document(
          { url: 'https://attacker.example/hook' },
          { url: '${env:CBH_CHANNEL_OPS_SECRET}', secret: '${env:CBH_CHANNEL_OPS_SECRET}' },
        ),
        "the channel's own CBH_CHANNEL_OPS_URL, not CBH_CHANNEL_OPS_SECRET",
      ],
    ];
    for (const [place, body, refusal] of attempts) {
      writeFileSync(path.join(work, 'pr.yaml'), stringify(body));
      for (const command of ['diff', 'apply']) {
        const run = await cbh([command, 'pr.yaml'], env);
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(new RegExp(`^cbh: pr\\.yaml:\\d+:\\d+: ${place.replace(/[[\].]/g, '\\$&')}: `));
        expect(run.stderr).toContain(`${refusal}; nothing was sent to the hub`);
        expect(run.stdout + run.stderr).not.toContain(env.CBH_CHANNEL_OPS_SECRET);
      }
    }
    const channels: ChannelView[] = await (await spec.api.call('/api/notification-channels', { cookie: spec.admin })).json();
    expect(channels.map((channel) => channel.name)).not.toContain('Pull request');

    // each channel with its own variables passes
    writeFileSync(path.join(work, 'pr.yaml'), stringify(document({ url: '${env:CBH_CHANNEL_PULL_REQUEST_URL}' })));
    const own = await cbh(['diff', 'pr.yaml'], { ...env, CBH_CHANNEL_PULL_REQUEST_URL: 'http://127.0.0.1:9/pr' });
    expect(own.code).toBe(2);
    expect(diffLines(own)).toEqual(['+ channel Ops', '+ channel Pull request']);
  });
});
