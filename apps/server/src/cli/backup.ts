// `npm run backup -- --to DIR` (see backup-command.ts; `--help` says what it does).
import { backupCli } from './backup-command.js';

process.exit(await backupCli(process.argv.slice(2)));
