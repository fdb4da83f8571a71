#!/usr/bin/env node
// `npx patchgate ARGS`: run the platform binary with ARGS, passing stdin, stdout, stderr, the
// exit code and a terminating signal through.
"use strict";

const { spawnSync } = require("node:child_process");
const { binaryPath } = require("../index.js");

let binary;
try {
  binary = binaryPath();
} catch (error) {
  process.stderr.write(`patchgate: error: ${error.message}\n`);
  process.exit(3);
}
const run = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  process.stderr.write(`patchgate: error: cannot run ${binary}: ${run.error.message}\n`);
  process.exit(3);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status ?? 3);
