/**
 * The `replay` subcommand: `svc-emulator replay BUNDLE` exits 0 when every answer is the same as
 * recorded, 1 naming the first call that differs and how, 2 when it cannot run (no such file, not
 * a bundle, another version, a world that does not load).
 */
import { BundleFileError, readBundleFile } from '../../areas/bundles/bundle-read.js';
import { packageVersion } from '../../emulator.js';
import { replay } from './replay.js';

const USAGE = `Usage: svc-emulator replay BUNDLE

Starts an emulator from a replay bundle (GET /_control/bundle), makes its calls again in order and
compares each answer with the recorded one (request ids and dates aside). Exits 0 when every
answer is the same, 1 naming the first call that differs and how, 2 when it cannot run.
docs/bundles.md
`;

/** @example process.exit(await runReplay(['svc-emulator-bundle.tar.gz'])) */
export async function runReplay(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (argv.length !== 1 || argv[0]!.startsWith('-')) {
    process.stderr.write(`svc-emulator replay: give one bundle file.\n\n${USAGE}`);
    return 2;
  }
  const file = argv[0]!;
  try {
    const bundle = readBundleFile(file, packageVersion());
    const outcome = await replay(bundle);
    const line = `svc-emulator replay: ${outcome.message}\n`;
    if (outcome.code === 0) process.stdout.write(line);
    else process.stderr.write(line);
    return outcome.code;
  } catch (err) {
    const message = err instanceof BundleFileError ? `${file}: ${err.message}` : String(err);
    process.stderr.write(`svc-emulator replay: cannot run: ${message}\n`);
    return 2;
  }
}
