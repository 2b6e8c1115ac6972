/**
 * `svc-emulator grade ...`: flags in, the findings printed (and written with `--report`), and the
 * exit status: 0 every finding passes, 1 one fails, 2 it could not run.
 */
import { GradeArgsError, gradeHelp, parseGradeArgs } from './args.js';
import { GradeError, gradeText, runGrade, writeGrade } from './grade.js';

/** Runs `grade` with `argv`; answers its exit status. */
export async function runGradeCommand(argv: string[], env = process.env): Promise<number> {
  try {
    const args = parseGradeArgs(argv, env);
    if ('help' in args) {
      process.stdout.write(gradeHelp());
      return 0;
    }
    const grade = await runGrade(args);
    process.stdout.write(gradeText(grade));
    if (args.report) {
      const files = writeGrade(args.report, grade);
      console.log(`  report: ${files.json} and ${files.markdown}`);
    }
    return grade.exit_code;
  } catch (err) {
    const known = err instanceof GradeArgsError || err instanceof GradeError;
    console.error(`svc-emulator grade: ${known ? (err as Error).message : String(err)}`);
    return 2;
  }
}
