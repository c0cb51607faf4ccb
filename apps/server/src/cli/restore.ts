// `npm run restore -- --from DIR` (see restore-command.ts; `--help` says what it does).
import { restoreCli } from './restore-command.js';

process.exit(await restoreCli(process.argv.slice(2)));
