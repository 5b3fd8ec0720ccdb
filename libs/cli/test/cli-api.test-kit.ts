import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import type { CreatedApiTokenView } from '@cbh/contracts';
import { buildCli, runCli, type Run } from './cli.test-kit';

/**
 * What the kit needs of the spec file's API, as apiForThisFile (api/test/test-api.ts) starts it. Named here by its
 * shape: outside the API, only spec files import the API's code.
 */
interface SpecApi {
  readonly api: {
    readonly baseUrl: string;
    call(path: string, options?: { method?: string; body?: unknown; cookie?: string | null }): Promise<Response>;
  };
  readonly admin: string;
}

/**
 * `cbh` as a CI job runs it, for a spec file: the built bundle in a child process, in a scratch directory of the file's
 * own, against the file's API (`spec`, started before this is called), authenticated by a token made through the API;
 * with the helpers the file's tests share.
 */
export function cliForThisFile(spec: SpecApi) {
  const work = mkdtempSync(path.join(tmpdir(), 'cbh-cli-'));
  const bundle = path.join(work, 'dist/cbh.js');
  let token: string;

  /** A token made by the admin: with the given permissions (all of the admin's without), or limited to some remotes. */
  async function createToken(
    permissions?: string[],
    { name = 'ci', remotes }: { name?: string; remotes?: string[] } = {},
  ): Promise<CreatedApiTokenView> {
    const response = await spec.api.call('/api/tokens', {
      method: 'POST',
      cookie: spec.admin,
      body: { name, expiresInDays: 7, permissions, remotes },
    });
    expect(response.status).toBe(201);
    return response.json();
  }

  beforeAll(async () => {
    buildCli(path.dirname(bundle));
    token = (await createToken()).token;
  }, 120_000);

  return {
    work,
    createToken,
    /** `cbh ARGS` in the scratch directory with CBH_URL and CBH_TOKEN set (or as given), and what it printed. */
    cbh: (args: string[], env: Record<string, string | undefined> = {}): Promise<Run> =>
      runCli(bundle, work, args, { CBH_URL: spec.api.baseUrl, CBH_TOKEN: token, ...env }),
    /**
     * Writes `document` as YAML to `file` in the work folder, and says where the hub's refusal should point: the line
     * (from 1) of the first row holding `marker`, and the column of `at` in that row.
     */
    writeYaml(file: string, document: unknown, marker: string, at = marker) {
      const text = stringify(document);
      writeFileSync(path.join(work, file), text);
      const lines = text.split('\n');
      const index = lines.findIndex((row) => row.includes(marker));
      return { line: index + 1, column: lines[index]!.indexOf(at) + 1 };
    },
  };
}

/** The change lines `cbh diff` and `cbh apply` print: `+` to create, `~` to update, `-` to delete. */
export const diffLines = (run: Run) => run.stdout.split('\n').filter((line) => /^[+~-] /.test(line));
