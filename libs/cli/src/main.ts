import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { CONFIG_FORMATS, MANUAL_ACTION_TEXT, MANUAL_ACTIONS, type ImportResult, type ReleaseView } from '@cbh/contracts';
import packageJson from '../package.json';
import { allBreakers, controlBreakers } from './breaker-controls';
import { CliError, DRILL_EXIT, EXIT, HubRefusal } from './cli-error';
import { ConfigFile } from './config-file';
import { breakerNames, checkDrill, pickDrill } from './drill-file';
import { followDrill, startDrill, startedLines, StopOnSignal, verdictLines } from './drill-run';
import { hubFromEnv, type HubClient } from './hub-client';
import { changed, diffLine, diffLines, summary } from './import-report';
import { count, Progress } from './progress';
import { buildRemote, containerOf, problemLines, pushBuild, readBuild, releaseOf, statusLines } from './release';
import { applyOpenSlo, exportSlos, readOpenSloFile, sloRules } from './slos';

const progress = new Progress();
// `cbh export | head` closes the pipe early: that is the reader's choice, not a failure to report
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(EXIT.ok);
});
const colors = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;

/** POST /api/import with the file, a dry run or not; a refused document is explained with places in the file. */
async function importFile(fileName: string, { dryRun, prune }: { dryRun: boolean; prune: boolean }): Promise<ImportResult> {
  const hub = hubFromEnv();
  const file = ConfigFile.read(fileName);
  const { text, unfilled } = file.referencesFilled(process.env);
  for (const { at, place, variable } of unfilled) {
    console.error(`${at}: ${place}: ${variable} is not set, so the hub keeps the value it has (a new channel needs one)`);
  }
  const items = `${count(file.items)} item${file.items === 1 ? '' : 's'}`;
  progress.show(dryRun ? `Comparing ${file.name} (${items}) with ${hub.url}…` : `Applying ${file.name} (${items}) to ${hub.url}…`);
  try {
    const query = new URLSearchParams({ ...(dryRun ? { dryRun: 'true' } : {}), ...(prune ? { prune: 'true' } : {}) });
    return await hub.json<ImportResult>(`/api/import${query.size ? `?${query}` : ''}`, {
      method: 'POST',
      body: text,
      contentType: file.contentType,
    });
  } catch (error) {
    if (error instanceof HubRefusal && error.status === 400) {
      throw new CliError(`The hub refused ${file.name}:\n${file.explain(error.hubMessage)}`);
    }
    if (error instanceof HubRefusal && error.status === 413) {
      throw new CliError(`${file.name} is too large for the hub (413): ${error.hubMessage}`);
    }
    if (error instanceof HubRefusal && error.status === 409 && !dryRun) {
      throw new CliError(`${error.message}\nNothing was applied: an import changes everything or nothing.`);
    }
    throw error;
  } finally {
    progress.stop();
  }
}

const FILE_ARGUMENT = 'a document from cbh export (.yaml, .yml or .json), or an OpenSLO file of SLOs (cbh slo export --openslo)';
/** An SLO's line as `cbh apply` of an OpenSLO file applies it, printed as it goes. */
const print = (change: Parameters<typeof diffLine>[0]) => console.log(diffLine(change, colors));

const program = new Command('cbh')
  .description(
    "The hub's configuration as a file to diff, review and apply, and breakers controlled by name.\n" +
      "Reads CBH_URL (the hub's address) and CBH_TOKEN (an access token made on the hub's Account page).",
  )
  .version(packageJson.version)
  .showHelpAfterError()
  .addHelpText(
    'after',
    '\nExit codes:\n  0  done (diff: no changes)\n  1  failed: a refusal, an unreachable hub, a bad document or bad arguments\n  2  diff: the hub differs from the document\n(cbh drill run has its own: cbh drill run --help)',
  );

program
  .command('export')
  .description('print the hub’s configuration (breakers, services, domains; notification channels, rules and windows) as one document')
  .addOption(new Option('--format <format>', 'json or yaml').choices(CONFIG_FORMATS).default('json'))
  .action(async ({ format }: { format: string }) => {
    const hub = hubFromEnv();
    const mediaType = format === 'yaml' ? 'application/yaml' : 'application/json';
    const response = await hub.send(`/api/export?format=${format}`, { accept: mediaType });
    if (!response.headers.get('content-type')?.startsWith(mediaType)) {
      throw new CliError(
        `${hub.url} answered GET /api/export with ${response.headers.get('content-type') ?? 'no content type'}, not ${mediaType}: is CBH_URL the hub's address?`,
      );
    }
    // the hub's bytes as they are: two exports of the same state diff to nothing
    process.stdout.write(await response.text());
  });

program
  .command('diff')
  .description(
    'show what applying FILE would change, changing nothing (exit 2 when something would change); ${env:NAME} in a channel is filled in from the environment',
  )
  .argument('<file>', FILE_ARGUMENT)
  .option('--prune', 'also show the items the hub has and FILE lacks, which apply --prune deletes')
  .action(async (file: string, { prune = false }: { prune?: boolean }) => {
    const openslo = readOpenSloFile(file);
    // an OpenSLO file's lines are printed as its SLOs are compared
    const result = openslo
      ? { changes: await applyOpenSlo(hubFromEnv(), openslo, { dryRun: true, prune, progress, print }) }
      : await importFile(file, { dryRun: true, prune });
    if (!openslo) for (const line of diffLines(result, colors)) console.log(line);
    console.log(summary(result, false));
    process.exitCode = changed(result).length ? EXIT.changes : EXIT.ok;
  });

program
  .command('apply')
  .description(
    'apply FILE to the hub in one transaction (all or nothing) and print what changed; ${env:NAME} in a channel is filled in from the environment; an OpenSLO file’s SLOs are created or updated one by one, matched by name',
  )
  .argument('<file>', FILE_ARGUMENT)
  .option('--prune', 'also delete the items the hub has and FILE lacks')
  .action(async (file: string, { prune = false }: { prune?: boolean }) => {
    const openslo = readOpenSloFile(file);
    if (openslo) {
      const changes = await applyOpenSlo(hubFromEnv(), openslo, { dryRun: false, prune, progress, print });
      return console.log(summary({ changes }, true));
    }
    const result = await importFile(file, { dryRun: false, prune });
    for (const line of diffLines(result, colors)) console.log(line);
    console.log(summary(result, true));
  });

const breakers = program.command('breakers').description('use a manual control on breakers named on the command line');
for (const action of MANUAL_ACTIONS) {
  breakers
    .command(action)
    .description(`${MANUAL_ACTION_TEXT[action].label} each breaker named, on every replica`)
    .argument('<names...>', 'breaker names, as on the wall')
    .action(async (names: string[]) => {
      if (!(await controlBreakers(hubFromEnv(), action, names, progress))) process.exitCode = EXIT.failed;
    });
}

const slo = program.command('slo').description('service level objectives: export them, or write their Prometheus rules');

slo
  .command('export')
  .description('print the hub’s SLOs: its JSON, or OpenSLO v1 YAML that cbh apply takes back (needs circuit_breaker_view)')
  .option('--openslo', 'as OpenSLO v1 YAML, one document an SLO')
  .option('-o, --output <file>', 'write to FILE instead of stdout')
  .action(async ({ openslo = false, output }: { openslo?: boolean; output?: string }) => {
    const { text, count: n } = await exportSlos(hubFromEnv(), openslo);
    if (output) {
      try {
        writeFileSync(output, text);
      } catch (error) {
        throw new CliError(`Cannot write ${output}: ${(error as Error).message}`);
      }
      console.error(`Wrote ${count(n)} SLO${n === 1 ? '' : 's'} to ${output}`);
    } else process.stdout.write(text);
  });

slo
  .command('rules')
  .description('print the Prometheus recording and alerting rules of an SLO (Sloth’s shape) over the hub’s /metrics')
  .argument('<slo>', 'the SLO’s id, or its name')
  .action(async (which: string) => {
    process.stdout.write(await sloRules(hubFromEnv(), which));
  });

const release = program.command('release').description("a remote's build as a version: check, push, promote, roll back (system_admin)");

release
  .command('check')
  .description("check dist/<remote>'s build against the shell's contract, sending nothing (exit 1 when it breaks a rule)")
  .argument('<remote>', 'the remote, as its folder (mfe-domains) or its container (mfe_domains)')
  .option('--dist <dir>', 'where the build is', 'dist')
  .action((remote: string, { dist }: { dist: string }) => {
    const build = readBuild(remote, dist);
    if (build.problems.length === 0) return console.log(`${build.folder}: the shell can load it`);
    console.error([`${build.folder} breaks the shell's contract:`, ...problemLines(build.problems)].join('\n'));
    process.exitCode = EXIT.failed;
  });

release
  .command('push')
  .description("build the remote, check it against the shell's contract, upload it as a new version, and make it live or a canary")
  .argument('<remote>', 'the remote, as its folder (mfe-domains) or its container (mfe_domains)')
  .option('--dist <dir>', 'where the build is', 'dist')
  .option('--no-build', 'upload the build already in --dist instead of building it (npx nx run <remote>:build)')
  .option('--git-commit <sha>', 'the commit it was built from (GITHUB_SHA, CI_COMMIT_SHA… by default)')
  .addOption(new Option('--promote', 'make the new version live once uploaded').conflicts('canary'))
  .option('--canary <percent>', 'give the new version to this share of visitors (1–99) while the others keep the live one')
  .action(async (remote: string, options: { dist: string; build: boolean; gitCommit?: string; promote?: boolean; canary?: string }) => {
    const percent = options.canary === undefined ? undefined : Number(options.canary);
    if (percent !== undefined && !(Number.isInteger(percent) && percent >= 1 && percent <= 99)) {
      throw new CliError(`--canary takes a whole percentage from 1 to 99, not ${options.canary}`);
    }
    if (options.build) await buildRemote(remote, progress);
    const build = readBuild(remote, options.dist);
    if (build.problems.length > 0) {
      throw new CliError([`${build.folder} breaks the shell's contract; nothing was sent:`, ...problemLines(build.problems)].join('\n'));
    }
    const hub = hubFromEnv();
    const commit = options.gitCommit ?? process.env.GITHUB_SHA ?? process.env.CI_COMMIT_SHA;
    progress.show(`Uploading ${build.folder} (${count(build.files.length)} files) to ${hub.url}…`);
    try {
      const version = await pushBuild(hub, build, commit);
      progress.stop();
      console.log(`${build.remote}: version ${version.id} uploaded (${count(version.files)} files, ${count(version.bytes)} bytes)`);
      const post = (path: string, body: unknown) =>
        hub.json<ReleaseView>(`/api/releases/${build.remote}/${path}`, {
          method: 'POST',
          body: JSON.stringify(body),
          contentType: 'application/json',
        });
      if (options.promote) console.log(statusLines([await post('promote', { versionId: version.id })])[0]);
      if (percent !== undefined) console.log(statusLines([await post('canary', { versionId: version.id, percent })])[0]);
    } finally {
      progress.stop();
    }
  });

release
  .command('promote')
  .description('make a version of a remote live on every replica')
  .argument('<remote>', 'the remote, as its folder or its container')
  .argument('<version>', 'the version id (cbh release status lists them)')
  .action(async (remote: string, version: string) => {
    const versionId = Number(version);
    if (!Number.isInteger(versionId) || versionId <= 0) throw new CliError(`${version} is not a version id`);
    const hub = hubFromEnv();
    const after = await hub.json<ReleaseView>(`/api/releases/${containerOf(remote)}/promote`, {
      method: 'POST',
      body: JSON.stringify({ versionId }),
      contentType: 'application/json',
    });
    console.log(statusLines([after])[0]);
  });

release
  .command('rollback')
  .description('go back to the version live before the current one, in one action')
  .argument('<remote>', 'the remote, as its folder or its container')
  .action(async (remote: string) => {
    const after = await hubFromEnv().json<ReleaseView>(`/api/releases/${containerOf(remote)}/rollback`, { method: 'POST' });
    console.log(statusLines([after])[0]);
  });

release
  .command('status')
  .description('what version of each remote is live, and what rollback goes back to')
  .argument('[remote]', 'only this remote')
  .action(async (remote?: string) => {
    const hub = hubFromEnv();
    const releases = remote ? [await releaseOf(hub, remote)] : await hub.json<ReleaseView[]>('/api/releases');
    for (const line of statusLines(releases)) console.log(line);
  });

/** The hub's own breakers by lower-cased name, for a drill that names them as the configuration document does. */
const hubBreakerIds = async (hub: HubClient) =>
  new Map(
    (await allBreakers(hub)).filter((breaker) => breaker.source === 'hub').map((breaker) => [breaker.name.toLowerCase(), breaker.id]),
  );

const drill = program
  .command('drill')
  .description('resilience drills: run one from a file, in CI next to a release (circuit_breaker_admin)');

drill
  .command('run')
  .description(
    'start the drill in FILE and print its blast radius; with --wait follow it, printing its timeline, until its verdict is final',
  )
  .argument('<file>', 'a drill in the body’s shape of POST /api/drills (.yaml, .yml or .json), or a file with a drills: list')
  .option('--name <name>', 'the drill to run of the file’s drills: list')
  .option('--wait', 'follow it until every expectation is judged: exit 0 met, 1 missed; Ctrl-C stops the drill')
  .addHelpText(
    'after',
    '\nExit codes:\n  0    started (without --wait), or every expectation held\n  1    an expectation did not hold (the timeline is printed)\n  2    a bad file or arguments, a refusal, an unreachable hub\n  130  interrupted (SIGINT; 143 for SIGTERM) while waiting, after stopping the drill',
  )
  // a CI job must tell "the breakers did not react" (1) from "the drill could not run" (2), bad arguments included
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : DRILL_EXIT.error))
  .action(async (fileName: string, { name, wait = false }: { name?: string; wait?: boolean }) => {
    let guard: StopOnSignal | undefined;
    try {
      const picked = pickDrill(fileName, name);
      // a file whose breakers are all ids or { service, name } is checked before CBH_URL and CBH_TOKEN are
      const file = breakerNames(picked).length ? undefined : checkDrill(picked);
      const hub = hubFromEnv();
      // installed before the start: a signal while the hub answers still stops the drill it starts
      guard = wait ? new StopOnSignal(hub, progress) : undefined;
      let view;
      try {
        view = await startDrill(hub, file ?? checkDrill(picked, await hubBreakerIds(hub)));
      } catch (error) {
        guard?.failed();
        throw error;
      }
      guard?.started(view.id);
      if (guard?.stopping) return;
      for (const line of startedLines(view, hub.url)) console.log(line);
      if (!guard) return;
      const detail = await followDrill(hub, view, {
        progress,
        countdown: Boolean(process.stderr.isTTY),
        print: (line) => console.log(line),
        guard,
      });
      guard.dispose();
      for (const line of verdictLines(detail, hub.url)) console.log(line);
      process.exitCode = detail.verdict === 'met' ? DRILL_EXIT.met : DRILL_EXIT.missed;
    } catch (error) {
      guard?.dispose();
      progress.stop();
      console.error(error instanceof CliError ? `cbh: ${error.message}` : error);
      process.exitCode = DRILL_EXIT.error;
    }
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  progress.stop();
  console.error(error instanceof CliError ? `cbh: ${error.message}` : error);
  process.exitCode = EXIT.failed;
});
