// The bench program: BENCH_KINDS names the module whose exports declare the kinds: the route under measurement
// ("pulumi-docs-platform", dynamic resources; "pulumi-docs-platform/plugin", the `docs` provider plugin's classes,
// same names and arguments) or the no-op floor ("docs-floor"). The size and the rename switch come from the
// environment the bench gives the CLI.
const { declare } = require("./shape");

const env = (name) => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set: run this program through bench/run.mts`);
  return value;
};

declare(require(env("BENCH_KINDS")), {
  n: Number(env("BENCH_N")),
  rename: env("BENCH_RENAME") === "1",
  organizationId: env("BENCH_ORGANIZATION_ID"),
  spaceIds: JSON.parse(env("BENCH_SPACE_IDS")),
  userIds: JSON.parse(env("BENCH_USER_IDS")),
});
