// The commands as a user meets them: --help documents them; a bad configuration file is
// reported with the file, the key and what was expected.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { runBinary, scratch } from "./harness.mjs";

for (const [command, flags] of [
  ["serve", ["--addr", "--data-dir", "--config"]],
  ["stdio", ["--data-dir", "--config"]],
]) {
  test(`warrant ${command} --help documents the command and its flags`, async () => {
    const { code, stdout } = await runBinary([command, "--help"]);
    assert.equal(code, 0);
    for (const flag of flags) assert.ok(stdout.includes(flag), `${flag} in:\n${stdout}`);
  });
}

for (const command of ["serve", "stdio"]) {
  test(`warrant ${command} names the file, the key and the expectation of a bad config`, async () => {
    const { dir, remove } = scratch();
    try {
      writeFileSync(path.join(dir, "warrant.toml"), 'body_limit = "lots"\n');
      const { code, stderr } = await runBinary([command], { cwd: dir });
      assert.equal(code, 2, stderr);
      assert.ok(stderr.includes("warrant.toml"), stderr);
      assert.ok(stderr.includes("body_limit"), stderr);
      assert.match(stderr, /expected/, stderr);
      assert.equal(stderr.trim().split("\n").length, 1, "one line");
    } finally {
      remove();
    }
  });
}
