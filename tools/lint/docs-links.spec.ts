import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TABLE_END, TABLE_START, withTable } from '../../bench/performance-doc.mjs';

/**
 * `npm run lint:docs` (remark with remark-validate-links, configured in .remarkrc.mjs) tried on a small tree: a link to
 * a missing file or a heading that is not there fails the lint, a good one passes. And the benchmark table of
 * docs/performance.md is the run's, written between its markers.
 */
const ROOT = path.resolve(__dirname, '../..');
const REMARK = path.join(ROOT, 'node_modules/.bin/remark');

function lintDocs(files: Record<string, string>) {
  const tree = mkdtempSync(path.join(tmpdir(), 'cbh-docs-'));
  copyFileSync(path.join(ROOT, '.remarkrc.mjs'), path.join(tree, '.remarkrc.mjs'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), text);
  }
  // the config imports remark-validate-links: resolved from the workspace's node_modules
  const run = spawnSync(REMARK, ['.', '--frail', '--quiet', '--no-stdout'], {
    cwd: tree,
    encoding: 'utf8',
    env: { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') },
  });
  return { status: run.status, report: run.stderr };
}

const GUIDE = '# Backups\n\n## Restoring a dump\n\nSee [the index](../README.md).\n';

it('passes links to files and headings that exist', () => {
  const run = lintDocs({
    'README.md': '# Hub\n\nRead [restoring](docs/backups.md#restoring-a-dump).\n',
    'docs/backups.md': GUIDE,
  });
  expect(run).toEqual({ status: 0, report: '' });
}, 30_000);

it('fails on a link to a heading that is not there, naming it', () => {
  const run = lintDocs({ 'README.md': '# Hub\n\nRead [restoring](docs/backups.md#restore).\n', 'docs/backups.md': GUIDE });
  expect(run.status).not.toBe(0);
  expect(run.report).toContain('Cannot find heading for `#restore` in `docs/backups.md`');
}, 30_000);

it('fails on a link to a file that is not there', () => {
  const run = lintDocs({ 'README.md': '# Hub\n\nRead [deploying](docs/deploy.md).\n' });
  expect(run.status).not.toBe(0);
  expect(run.report).toContain('Cannot find file `docs/deploy.md`');
}, 30_000);

it('checks the repository as it is: every link and anchor of the README, docs/ and the other Markdown resolves', () => {
  const run = spawnSync(REMARK, ['.', '--frail', '--quiet', '--no-stdout'], { cwd: ROOT, encoding: 'utf8' });
  expect({ status: run.status, report: run.stderr }).toEqual({ status: 0, report: '' });
}, 60_000);

it('writes the benchmark table of a run between the markers of docs/performance.md, replacing the one before', () => {
  const document = readFileSync(path.join(ROOT, 'docs/performance.md'), 'utf8');
  expect(document).toContain(`\n${TABLE_START}\n`);
  expect(document).toContain(`\n${TABLE_END}\n`);
  const once = withTable(document, '| Measure | Figure | Goal | |\n|---|---|---|---|\n| a | 1 | ≤ 2 | OK |');
  const twice = withTable(once, '| Measure | Figure | Goal | |\n|---|---|---|---|\n| b | 3 | ≤ 2 | MISSED |');
  expect(twice).toContain('| b | 3 | ≤ 2 | MISSED |');
  expect(twice).not.toContain('| a | 1 |');
  expect(twice.slice(0, twice.indexOf(TABLE_START))).toBe(document.slice(0, document.indexOf(TABLE_START)));
  expect(twice.slice(twice.indexOf(TABLE_END))).toBe(document.slice(document.indexOf(TABLE_END)));
  expect(() => withTable('# no markers', 'x')).toThrow('the document has no');
});
