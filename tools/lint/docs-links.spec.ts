import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TABLE_END, TABLE_START, withTable } from '../../bench/performance-doc.mjs';

/**
 * `npm run lint:docs` (remark with remark-validate-links, configured in .remarkrc.mjs; part of `npm run lint`) tried on
 * a small tree: a link to a missing file or a heading that is not there fails the lint, a good one passes. And the benchmark table of
 * docs/performance.md is the run's, written between its markers.
 */
const ROOT = path.resolve(__dirname, '../..');
const REMARK = path.join(ROOT, 'node_modules/.bin/remark');

/** remark over a tree of these files with the repository's configuration, whose plugin resolves from the workspace. */
function lintDocs(files: Record<string, string>) {
  const tree = mkdtempSync(path.join(tmpdir(), 'cbh-docs-'));
  copyFileSync(path.join(ROOT, '.remarkrc.mjs'), path.join(tree, '.remarkrc.mjs'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
  writeFileSync(path.join(tree, '.remarkignore'), 'node_modules\n');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), text);
  }
  try {
    const run = spawnSync(REMARK, ['.', '--frail', '--quiet', '--no-stdout', '--no-color'], { cwd: tree, encoding: 'utf8' });
    return { status: run.status, report: run.stderr };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
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
