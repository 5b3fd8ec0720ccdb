// npm run dev: webpack-dev-server for the shell (http://localhost:4200) and each remote, the API in watch mode.
import { run } from './run.mjs';

process.exit(await run('nx', ['run-many', '-t', 'serve', '--parallel=7', '--outputStyle=stream']));
