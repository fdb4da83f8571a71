// The API of the `patchgate` npm package. The document types (Step, ExecutorResult, Report,
// GenericAnswer, ...) are generated from patchgate's JSON Schemas into schema.d.ts.
import type { ErrorLine, ExecutorResult, GenericAnswer, ItemId, Report, Step } from "./schema";

export * from "./schema";

/** An input document: an object (serialized), or JSON text / bytes passed on as they are (to
 * read a file, pass its bytes: `fs.readFileSync(path)`). */
export type Input<T> = T | string | Uint8Array;

/** What `validate` and `apply` resolve to: the verdict and the full report. */
export interface Outcome {
  /** Whether the result may be applied (for `apply`: was applied). */
  valid: boolean;
  /** One line; on rejection it starts with the rule id and a colon. */
  reason: string;
  /** Every violation and note (`schemas/report.schema.json`). */
  report: Report;
}

/** Options every function takes. */
export interface CommonOptions {
  /** The repository (default: the one around `cwd`). */
  repo?: string;
  /** The working directory of the run. */
  cwd?: string;
  /** A `patchgate` binary to run instead of the bundled one (also `$PATCHGATE_BINARY`). */
  binary?: string;
}

/** How the patch is checked against the repository (`validate` and `apply`). */
export interface ScratchOptions {
  /** The revision the patch applies to (default: the step's `base`, else HEAD). */
  base?: string;
  /** Leading path components to strip from the patch's names, as `git apply -pN` (default 1). */
  strip?: number;
  /** Run `sh -c checkCmd` in a temporary copy of the patched tree; non-zero exit rejects. */
  checkCmd?: string;
  /** Seconds before `checkCmd` is killed. */
  checkTimeout?: number;
  /** Repair the patch first where that is provably safe, then judge the repaired result. */
  repair?: boolean;
}

export interface ValidateOptions extends CommonOptions, ScratchOptions {
  /** Check the patch alone, without a repository. */
  noRepo?: boolean;
  /** `false`: do not keep a rejection for `patchgate review` (default true). */
  record?: boolean;
  /** A judge command asked when no rule rejects (reads `{step, result}`, prints a verdict). */
  judge?: string;
  /** Ask a language model, `PROVIDER:MODEL` (e.g. `openai:gpt-4o-mini`); the server and key
   * come from `OPENAI_BASE_URL`, `OPENAI_API_KEY` or `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`. */
  judgeModel?: string;
  /** When the model judge is asked: only where the rules cannot settle the step, or always
   * when no rule rejects. */
  judgeWhen?: "uncertain" | "always";
  /** Seconds the judge may take. */
  judgeTimeout?: number;
}

export interface ValidateManyOptions extends ValidateOptions {
  /** Results judged at once (default: the machine's cores). */
  jobs?: number;
}

/** One result for `validateMany` (`schemas/batch-item.schema.json`). */
export interface BatchInput {
  /** Echoed in the answer (default: the item's position). */
  id?: ItemId;
  step: Input<Step>;
  result: Input<ExecutorResult>;
  /** The repository to judge against (default: `options.repo`). */
  repo?: string;
  /** The revision the patch applies to (default: `options.base`, the step's, else HEAD). */
  base?: string;
}

/** What `validateMany` yields for an item it judged: `validate`'s outcome and the item's id. */
export interface BatchOutcome extends Outcome {
  id: ItemId;
}

/** One answer of `validateMany`: an outcome, or (with `error`) why the item has none. */
export type BatchAnswer = BatchOutcome | ErrorLine;

export interface ApplyOptions extends CommonOptions, ScratchOptions {
  /** Also stage the changes in the index. */
  index?: boolean;
}

export interface GuardOptions extends CommonOptions {
  /** Where the per-session hallucination count is kept (default: patchgate's own). */
  stateDir?: string;
}

/** One agent tool call in patchgate's own protocol (the agent protocols' common fields). */
export interface GuardCall {
  session_id?: string;
  /** The agent's working directory; relative paths are resolved against it. */
  cwd?: string;
  /** `read_file`, `write_file`, `replace`, `list_directory`, `run_shell_command`, ... */
  tool_name: string;
  tool_input: Record<string, unknown>;
}

/** Judge one executor result against its step (`patchgate validate`). */
export function validate(
  step: Input<Step>,
  result: Input<ExecutorResult>,
  options?: ValidateOptions,
): Promise<Outcome>;

/** Judge many results in one `patchgate validate --batch` run: the answers in the order of
 * `items`, each as soon as it is ready; an item that cannot be judged yields an `ErrorLine`
 * and the run goes on. Leaving the loop early stops the run. */
export function validateMany(
  items: Iterable<BatchInput> | AsyncIterable<BatchInput>,
  options?: ValidateManyOptions,
): AsyncGenerator<BatchAnswer, void, undefined>;

/** Validate and, only if valid, write the patch into the worktree (`patchgate apply`), all or
 * nothing; a rejection writes nothing and resolves with `valid: false`. */
export function apply(
  step: Input<Step>,
  result: Input<ExecutorResult>,
  options?: ApplyOptions,
): Promise<Outcome>;

/** Check one agent tool call before it runs (`patchgate guard`): `decision` is allow or deny. */
export function guard(call: Input<GuardCall>, options?: GuardOptions): Promise<GenericAnswer>;

/** patchgate refused the input (exit 2) or could not do its job (exit 3). */
export class PatchgateError extends Error {
  /** 2: the input itself is refused; 3: patchgate could not do its job. */
  readonly exitCode: 2 | 3;
  /** The stable error code (`invalid_step`, `no_repository`, `usage`, ...). */
  readonly code: string;
}

/** The `patchgate` executable this package runs. */
export function binaryPath(): string;
