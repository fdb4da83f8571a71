// The installed npm package, through its API, on the repository's bundled fixtures. Run from
// the fresh npm project the tarballs were installed into (packages/test/run.sh does):
// `node --test test_npm.mjs`. Every fixtures/validate case must give the verdict and the
// violations its expected.json records.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";

// Resolved from the project the package was installed into, never from this repository.
const require = createRequire(path.join(process.cwd(), "package.json"));
const patchgate = require("patchgate");
const FIXTURES = process.env.PATCHGATE_FIXTURES;
assert.ok(FIXTURES, "PATCHGATE_FIXTURES names the repository's fixtures directory");

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
};

function git(repo, ...args) {
  return execFileSync("git", args, { cwd: repo, env: GIT_ENV, encoding: "utf8" });
}

const TEMP_DIRS = [];
after(() => {
  for (const dir of TEMP_DIRS) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pg-npm-")));
  TEMP_DIRS.push(dir);
  return dir;
}

/** A repository whose one commit holds `files`. */
function makeRepo(files) {
  const repo = tempDir();
  git(repo, "init", "-q", "-b", "main");
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  }
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "--allow-empty", "-m", "base");
  return repo;
}

/** The committed files of a case: its policy and everything under base/. */
function caseFiles(dir) {
  const files = {};
  if (fs.existsSync(path.join(dir, "patchgate.toml"))) {
    files[".patchgate.toml"] = fs.readFileSync(path.join(dir, "patchgate.toml"), "utf8");
  }
  const base = path.join(dir, "base");
  if (fs.existsSync(base)) {
    for (const rel of fs.readdirSync(base, { recursive: true })) {
      const file = path.join(base, rel);
      if (fs.statSync(file).isFile()) {
        files[rel] = fs.readFileSync(file, "utf8");
      }
    }
  }
  return files;
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

async function runCase(dir) {
  const argsFile = path.join(dir, "args.json");
  const args = fs.existsSync(argsFile) ? readJson(argsFile) : [];
  const judge = args.includes("--judge") ? args[args.indexOf("--judge") + 1] : undefined;
  // The fixture's other flags, as the API takes them (the binary's test passes args.json).
  const repair = args.includes("--repair");
  const strip = args.includes("--strip") ? Number(args[args.indexOf("--strip") + 1]) : undefined;
  // Steps as objects, results as the executor's raw bytes: both input forms.
  const step = readJson(path.join(dir, "step.json"));
  const result = fs.readFileSync(path.join(dir, "result.json"));
  const files = caseFiles(dir);
  if (Object.keys(files).length === 0) {
    return patchgate.validate(step, result, { noRepo: true, judge, repair, strip, cwd: tempDir() });
  }
  return patchgate.validate(step, result, { repo: makeRepo(files), judge, repair, strip, record: false });
}

test("every validate fixture gives its recorded verdict", async () => {
  const root = path.join(FIXTURES, "validate");
  const cases = fs
    .readdirSync(root)
    .filter((name) => fs.existsSync(path.join(root, name, "step.json")))
    .sort();
  assert.ok(cases.length > 50, `${cases.length} cases`);
  for (const name of cases) {
    const expected = readJson(path.join(root, name, "expected.json"));
    const outcome = await runCase(path.join(root, name));
    const violations = outcome.report.violations.map((v) => [v.rule, v.code]);
    assert.deepEqual(
      { valid: outcome.valid, reason: outcome.reason, violations },
      { ...expected.verdict, violations: expected.violations },
      name,
    );
    assert.deepEqual(outcome.report.verdict, { valid: outcome.valid, reason: outcome.reason });
  }
});

test("validateMany: every repository fixture in one run gives its recorded verdict, in order", async () => {
  const root = path.join(FIXTURES, "validate");
  const cases = fs
    .readdirSync(root)
    .filter((name) => fs.existsSync(path.join(root, name, "step.json")))
    .filter((name) => !fs.existsSync(path.join(root, name, "args.json")))
    .filter((name) => Object.keys(caseFiles(path.join(root, name))).length > 0)
    .sort();
  assert.ok(cases.length > 30, `${cases.length} cases`);
  async function* items() {
    for (const name of cases) {
      const dir = path.join(root, name);
      const result = fs.readFileSync(path.join(dir, "result.json"));
      yield { id: name, step: readJson(path.join(dir, "step.json")), result, repo: makeRepo(caseFiles(dir)) };
    }
  }
  const answers = [];
  for await (const answer of patchgate.validateMany(items(), { jobs: 2, record: false })) {
    answers.push(answer);
  }
  assert.deepEqual(answers.map((a) => a.id), cases);
  for (const [i, answer] of answers.entries()) {
    const expected = readJson(path.join(root, cases[i], "expected.json"));
    const violations = answer.report.violations.map((v) => [v.rule, v.code]);
    assert.deepEqual(
      { valid: answer.valid, reason: answer.reason, violations },
      { ...expected.verdict, violations: expected.violations },
      cases[i],
    );
  }
});

test("validateMany: a bad item is answered on its own, and leaving early stops the run", async () => {
  const dir = path.join(FIXTURES, "validate", "accepted");
  const step = readJson(path.join(dir, "step.json"));
  const result = fs.readFileSync(path.join(dir, "result.json"), "utf8");
  const cwd = tempDir();
  const answers = [];
  const items = [{ step, result }, { step: { description: "" }, result }];
  for await (const answer of patchgate.validateMany(items, { noRepo: true, cwd })) {
    answers.push(answer);
  }
  assert.deepEqual([answers[0].id, answers[0].valid], [0, true]);
  assert.deepEqual([answers[1].id, answers[1].error.code], [1, "invalid_step"]);
  function* endless() {
    for (;;) yield { step, result };
  }
  let n = 0;
  for await (const _ of patchgate.validateMany(endless(), { noRepo: true, cwd })) {
    if (++n === 5) break;
  }
  assert.equal(n, 5);
  await assert.rejects(async () => {
    for await (const _ of patchgate.validateMany([{ step }], { noRepo: true, cwd })) {
      // an item without a result is refused before it is sent
    }
  }, TypeError);
});

test("a step it cannot read rejects with exit 2", async () => {
  await assert.rejects(
    patchgate.validate("{not json", "{}", { noRepo: true, cwd: tempDir() }),
    (error) =>
      error instanceof patchgate.PatchgateError &&
      error.exitCode === 2 &&
      error.code === "invalid_step",
  );
});

test("a string naming a file is refused with the fix", async () => {
  const step = path.join(FIXTURES, "validate", "undeclared", "step.json");
  await assert.rejects(
    patchgate.validate(step, "{}", { noRepo: true, cwd: tempDir() }),
    (error) =>
      error.exitCode === 2 && error.code === "usage" && error.message.includes("fs.readFileSync("),
  );
});

test("an error names the text passed in, not a temporary file", async () => {
  await assert.rejects(
    patchgate.validate("step.json", "{}", { noRepo: true, cwd: tempDir() }),
    (error) =>
      error.message.includes("the step passed in") && !error.message.includes(os.tmpdir()),
  );
});

test("repair judges and applies the repaired result", async () => {
  const step = { description: "In a.txt change two to 2 and add 2.5", mode: "apply" };
  // Right lines, counts too small, inside a fence.
  const patch =
    "```diff\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n" +
    "@@ -1,3 +1,3 @@\n one\n-two\n+2\n+2.5\n three\n```\n";
  const result = {
    mode: "apply",
    success: true,
    patch,
    filesWritten: ["a.txt"],
    filesTouched: ["a.txt"],
    summary: "changed a.txt",
  };
  const repo = makeRepo({ "a.txt": "one\ntwo\nthree\nfour\nfive\n" });
  const plain = await patchgate.validate(step, result, { repo, record: false });
  assert.equal(plain.valid, false);
  const repaired = await patchgate.validate(step, result, { repo, record: false, repair: true });
  assert.ok(repaired.reason.startsWith("accepted after repair: "), repaired.reason);
  const applied = await patchgate.apply(step, result, { repo, repair: true });
  assert.equal(applied.valid, true, applied.reason);
  assert.equal(fs.readFileSync(path.join(repo, "a.txt"), "utf8"), "one\n2\n2.5\nthree\nfour\nfive\n");
});

test("the model judge's options reach the binary", async () => {
  const dir = path.join(FIXTURES, "validate", "accepted");
  const step = fs.readFileSync(path.join(dir, "step.json"));
  const result = fs.readFileSync(path.join(dir, "result.json"));
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  try {
    const plain = await patchgate.validate(step, result, { noRepo: true, cwd: tempDir() });
    assert.equal(plain.valid, true, plain.reason);
    await assert.rejects(
      patchgate.validate(step, result, {
        noRepo: true,
        cwd: tempDir(),
        judgeModel: "openai:gpt-4o-mini",
        judgeWhen: "always",
      }),
      (error) => error.exitCode === 3 && error.code === "judge_failed",
    );
  } finally {
    if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
    if (saved.url !== undefined) process.env.OPENAI_BASE_URL = saved.url;
  }
});

test("apply writes an accepted result and nothing of a rejected one", async () => {
  const repo = makeRepo({ "README.md": "demo\n" });
  const load = (name, file) => readJson(path.join(FIXTURES, "validate", name, file));
  const no = await patchgate.apply(load("undeclared", "step.json"), load("undeclared", "result.json"), {
    repo,
  });
  assert.equal(no.valid, false);
  assert.equal(git(repo, "status", "--porcelain"), "");
  const yes = await patchgate.apply(load("accepted", "step.json"), load("accepted", "result.json"), {
    repo,
    index: true,
  });
  assert.equal(yes.valid, true, yes.reason);
  assert.equal(
    fs.readFileSync(path.join(repo, "greet.py"), "utf8"),
    'def greet(name):\n    return f"Hello, {name}!"\n',
  );
  assert.equal(git(repo, "status", "--porcelain"), "A  greet.py\n");
});

test("generic guard fixtures get their recorded decision", async () => {
  const root = path.join(FIXTURES, "guard", "generic");
  const cases = fs.readdirSync(root).sort();
  assert.ok(cases.length > 2);
  for (const name of cases) {
    const repo = makeRepo({ "README.md": "# demo\n" });
    const payload = fs.readFileSync(path.join(root, name, "payload.json"), "utf8");
    const expected = readJson(path.join(root, name, "expected.json")).stdout;
    const answer = await patchgate.guard(payload.replaceAll("{{ROOT}}", repo), {
      repo,
      stateDir: path.join(tempDir(), "state"),
    });
    assert.equal(answer.decision, expected.decision, name);
    assert.equal(answer.error?.code ?? null, expected.error?.code ?? null, name);
  }
});

test("a missing path is denied with the file meant", async () => {
  const repo = makeRepo({ "src/main.rs": "fn main() {}\n" });
  const stateDir = path.join(tempDir(), "state");
  const call = { session_id: "s1", cwd: repo, tool_name: "read_file", tool_input: { file_path: "src/mian.rs" } };
  const answer = await patchgate.guard(call, { cwd: repo, stateDir });
  assert.equal(answer.decision, "deny");
  assert.equal(answer.error.code, "PATH_NOT_FOUND");
  assert.deepEqual(answer.error.suggestions, ["src/main.rs"]);
  call.tool_input.file_path = "src/main.rs";
  const allowed = await patchgate.guard(call, { cwd: repo, stateDir });
  assert.deepEqual([allowed.decision, allowed.error], ["allow", null]);
});

test("the binary comes from the platform package and npx runs it", () => {
  const binary = patchgate.binaryPath();
  assert.ok(
    binary.startsWith(path.join(process.cwd(), "node_modules", "@patchgate", "linux-x64")),
    binary,
  );
  const version = execFileSync("npx", ["--no-install", "patchgate", "--version"], { encoding: "utf8" });
  assert.match(version, /^patchgate \d+\.\d+\.\d+/);
});
