// The typed API (types in index.d.ts): each function runs the platform's `patchgate` binary
// once and returns its JSON. Inputs are an object (serialized here), a string of JSON text or
// bytes (passed on as they are, so an executor's raw answer is judged byte for byte); to read a
// file pass its bytes (a string that names a file and is not JSON is refused). Exit
// codes 0 and 1 are answers; 2 (input refused) and 3 (could not do its job) reject the promise
// with a PatchgateError carrying the command's stable error code and one-line message.
"use strict";

const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/** The binary package for each `${process.platform}-${process.arch}` that has one. */
const PLATFORMS = { "linux-x64": "@patchgate/linux-x64" };

class PatchgateError extends Error {
  constructor(exitCode, code, message) {
    super(message);
    this.name = "PatchgateError";
    this.exitCode = exitCode;
    this.code = code;
  }
}

/** The `patchgate` executable: `$PATCHGATE_BINARY`, else the platform package's binary. */
function binaryPath() {
  if (process.env.PATCHGATE_BINARY) {
    return process.env.PATCHGATE_BINARY;
  }
  const platform = `${process.platform}-${process.arch}`;
  const pkg = PLATFORMS[platform];
  const fallback =
    "build it from a patchgate checkout ('cargo install --path . --locked') and set PATCHGATE_BINARY to its path";
  if (!pkg) {
    throw new Error(
      `patchgate ships no binary for ${platform} (only ${Object.keys(PLATFORMS).join(", ")}); ${fallback}`,
    );
  }
  if (process.platform === "linux" && !isGlibc()) {
    throw new Error(`the ${pkg} binary needs glibc, and this system uses musl; ${fallback}`);
  }
  try {
    return require.resolve(`${pkg}/bin/patchgate`);
  } catch {
    throw new Error(
      `the binary package ${pkg} is not installed (optional dependencies omitted?); ` +
        `reinstall with 'npm install patchgate' without --omit=optional, or ${fallback}`,
    );
  }
}

function isGlibc() {
  const header = process.report?.getReport?.().header;
  return !header || Boolean(header.glibcVersionRuntime);
}

/** Judge one executor result against its step (`patchgate validate`). */
async function validate(step, result, options = {}) {
  return judged("validate", step, result, validateFlags([], options), options);
}

/** The flags of `validate`, one result or a batch: the judge, the record, the checks. */
function validateFlags(args, options) {
  flag(args, "--no-repo", options.noRepo);
  flag(args, "--no-record", options.record === false);
  value(args, "--judge", options.judge);
  value(args, "--judge-model", options.judgeModel);
  value(args, "--judge-when", options.judgeWhen);
  value(args, "--judge-timeout", options.judgeTimeout);
  scratch(args, options);
  return args;
}

/**
 * Judge many results in one `patchgate validate --batch` run: an async iterable of answers in
 * the order of `items`, each as soon as it is ready. Items are written as the run takes them
 * (backpressure from the binary's bounded window), answers are not kept.
 */
async function* validateMany(items, options = {}) {
  const args = ["--batch", "-", "--with-report"];
  value(args, "--jobs", options.jobs);
  validateFlags(args, options);
  const argv = [...command(options), "validate", ...args];
  const child = spawn(argv[0], argv.slice(1), { cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] });
  const stderr = [];
  child.stderr.on("data", (chunk) => stderr.push(chunk));
  const closed = new Promise((resolve, reject) => {
    child.on("error", (error) =>
      reject(new PatchgateError(3, "spawn", `cannot run ${argv[0]}: ${error.message}`)),
    );
    child.on("close", (status, signal) => resolve(status ?? (signal ? 128 : 3)));
  });
  const fed = feed(items, child.stdin);
  const lines = require("node:readline").createInterface({ input: child.stdout });
  let failed = null;
  try {
    for await (const line of lines) {
      const answer = JSON.parse(line);
      if ("meta" in answer && answer.ok === false) {
        failed = answer;
        break;
      }
      yield "error" in answer
        ? { id: answer.id, line: answer.line, error: answer.error }
        : { id: answer.id, valid: answer.valid, reason: answer.reason, report: answer.report };
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill();
    }
  }
  const status = await closed;
  const refused = await fed;
  if (refused) {
    throw refused;
  }
  if (status !== 0 && status !== 1) {
    const stdout = failed ? JSON.stringify(failed) : "";
    throw failure({ status, stdout, stderr: Buffer.concat(stderr).toString("utf8") });
  }
}

/** Write each item as one line, waiting when the pipe is full; resolves with the error of an
 * item that cannot be written (the input ends there), or null. */
async function feed(items, stdin) {
  const { once } = require("node:events");
  stdin.on("error", () => {});
  let position = 0;
  try {
    for await (const item of items) {
      if (!stdin.write(batchLine(item, position))) {
        await once(stdin, "drain");
      }
      position += 1;
    }
    return null;
  } catch (error) {
    return stdin.destroyed ? null : error;
  } finally {
    stdin.end();
  }
}

function batchLine(item, position) {
  const line = { id: item.id ?? position };
  for (const key of ["step", "result"]) {
    if (item[key] === undefined) {
      throw new TypeError(`item ${position} has no '${key}'; give every item a step and a result`);
    }
    line[key] = item[key] instanceof Uint8Array ? Buffer.from(item[key]).toString("utf8") : item[key];
  }
  for (const key of ["repo", "base"]) {
    if (item[key] !== undefined && item[key] !== null) {
      line[key] = item[key];
    }
  }
  return `${JSON.stringify(line)}\n`;
}

/** Validate and, only if valid, write the patch into the worktree (`patchgate apply`). */
async function apply(step, result, options = {}) {
  const args = [];
  flag(args, "--index", options.index);
  scratch(args, options);
  return judged("apply", step, result, args, options);
}

/** Check one agent tool call before it runs (`patchgate guard`, patchgate's own protocol). */
async function guard(call, options = {}) {
  const env = { ...process.env };
  if (options.stateDir !== undefined) {
    env.PATCHGATE_STATE_DIR = options.stateDir;
  }
  const argv = [...command(options), "guard", "--protocol", "generic"];
  const run = await spawned(argv, { cwd: options.cwd, env, input: bytes(call) });
  if ((run.status !== 0 && run.status !== 2) || run.stdout.trim() === "") {
    throw failure(run);
  }
  return JSON.parse(run.stdout);
}

async function judged(name, step, result, args, options) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "patchgate-"));
  try {
    const report = path.join(dir, "report.json");
    // Each document goes through a file of this directory, gone once this returns: an error
    // names the argument instead.
    const texts = {};
    const argv = [
      ...command(options),
      name,
      "--step",
      write(step, path.join(dir, "step.json"), "step", texts),
      "--result",
      write(result, path.join(dir, "result.json"), "result", texts),
      "--report",
      report,
      ...args,
    ];
    const run = await spawned(argv, { cwd: options.cwd });
    if (run.status !== 0 && run.status !== 1) {
      throw failure(run, texts);
    }
    const verdict = JSON.parse(run.stdout);
    const full = JSON.parse(fs.readFileSync(report, "utf8"));
    return { valid: verdict.valid, reason: verdict.reason, report: full };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function command(options) {
  const argv = [options.binary ?? binaryPath(), "--format", "json"];
  if (options.repo !== undefined) {
    argv.push("--repo", options.repo);
  }
  return argv;
}

function scratch(args, options) {
  value(args, "--base", options.base);
  value(args, "--strip", options.strip);
  value(args, "--check-cmd", options.checkCmd);
  value(args, "--check-timeout", options.checkTimeout);
  flag(args, "--repair", options.repair);
}

function flag(args, name, isSet) {
  if (isSet) {
    args.push(name);
  }
}

function value(args, name, given) {
  if (given !== undefined && given !== null) {
    args.push(name, String(given));
  }
}

function bytes(input) {
  if (typeof input === "string" || input instanceof Uint8Array) {
    return input;
  }
  return JSON.stringify(input);
}

function write(input, file, name, texts) {
  if (typeof input === "string" && !/^\s*[{[]/.test(input) && isFile(input)) {
    throw new PatchgateError(
      2,
      "usage",
      `the ${name} '${input}' is a string, which is read as JSON text, and it names a file: ` +
        `pass fs.readFileSync(${JSON.stringify(input)}) to read the file`,
    );
  }
  fs.writeFileSync(file, bytes(input));
  texts[file] = `the ${name} passed in`;
  return file;
}

function isFile(name) {
  try {
    return fs.statSync(name).isFile();
  } catch {
    return false;
  }
}

/** Run `argv`; resolve with its exit status and its output as text. */
function spawned(argv, { cwd, env, input }) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", (error) =>
      reject(new PatchgateError(3, "spawn", `cannot run ${argv[0]}: ${error.message}`)),
    );
    child.on("close", (status, signal) =>
      resolve({
        status: status ?? (signal ? 128 : 3),
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    // The binary may answer without reading all of stdin (a refused payload): not an error.
    child.stdin.on("error", () => {});
    child.stdin.end(input ?? "");
  });
}

/** The error of a run that gave no answer: the JSON envelope's code and message when there is
 * one, else the last line on stderr. */
function failure(run, texts = {}) {
  let code = "failed";
  let message = "";
  try {
    const envelope = JSON.parse(run.stdout);
    code = envelope.error.code;
    message = envelope.error.message;
  } catch {
    const lines = run.stderr.trim().split("\n");
    message = lines[lines.length - 1] || `patchgate exited with ${run.status}`;
  }
  for (const [file, what] of Object.entries(texts)) {
    message = message.replaceAll(`'${file}'`, what).replaceAll(file, what);
  }
  const exitCode = run.status === 2 || run.status === 3 ? run.status : 3;
  return new PatchgateError(exitCode, code, message);
}

module.exports = { PatchgateError, apply, binaryPath, guard, validate, validateMany };
