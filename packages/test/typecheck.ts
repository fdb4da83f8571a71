// Compiled (never run) against the installed package's declarations with `tsc --strict`: the
// uses below must type-check, and each `@ts-expect-error` line must be an error, so the types
// are the schemas' and not `any`.
import {
  type BatchAnswer,
  type ExecutorResult,
  type GenericAnswer,
  type Outcome,
  PatchgateError,
  type Report,
  type Step,
  apply,
  guard,
  validate,
  validateMany,
} from "patchgate";

const step: Step = {
  description: "Add greet() to greet.py",
  mode: "apply",
  allowedFiles: ["greet.py"],
  expect: [{ file: "greet.py", present: "def greet" }],
};
const result: ExecutorResult = { mode: "apply", success: true, filesWritten: ["greet.py"] };

export async function uses(): Promise<string[]> {
  const outcome: Outcome = await validate(step, result, { noRepo: true, record: false });
  const report: Report = outcome.report;
  const rules: string[] = report.violations.map((v) => `${v.rule}/${v.code}:${v.file ?? ""}`);
  await apply(step, JSON.stringify(result), { index: true, strip: 1 });
  const answer: GenericAnswer = await guard({ tool_name: "read_file", tool_input: {} });
  if (answer.decision === "deny" && answer.error !== null && answer.error !== undefined) {
    rules.push(answer.error.code, ...answer.error.suggestions);
  }
  for await (const answer of validateMany([{ id: 1, step, result, repo: "/src/app" }], { jobs: 2 })) {
    const seen: BatchAnswer = answer;
    if ("error" in seen) {
      rules.push(`${seen.line}: ${seen.error.code}`);
    } else {
      rules.push(`${seen.id}: ${seen.report.verdict.reason}`);
    }
  }
  try {
    await validate("{", result);
  } catch (error) {
    if (error instanceof PatchgateError) {
      const exit: 2 | 3 = error.exitCode;
      rules.push(`${exit} ${error.code}`);
    }
  }
  return rules;
}

// @ts-expect-error: a step needs its description
export const noDescription: Step = { mode: "apply" };
// @ts-expect-error: the mode is "apply" or "fix_regression"
export const badMode: Step = { description: "x", mode: "rewrite" };
// @ts-expect-error: a verdict's validity is a boolean
export const badVerdict: Outcome["valid"] = "yes";
// @ts-expect-error: a rule id is one of the eight rules (or schema)
export const badRule: Report["violations"][number]["rule"] = "style";
// @ts-expect-error: decisions are allow or deny
export const badDecision: GenericAnswer["decision"] = "maybe";
// @ts-expect-error: unknown option
export const badOption = validate(step, result, { noRepository: true });
// @ts-expect-error: jobs is a number
export const badJobs = validateMany([], { jobs: "2" });
