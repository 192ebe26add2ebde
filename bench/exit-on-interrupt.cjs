// Preloaded (`--require`) into the CLI's Node processes when `npm run bench -- --cpu-prof <dir>` profiles them. The
// engine stops the provider plugin and the program with SIGINT (SIGKILL 5 s later), and Node's default SIGINT ends a
// process without writing its `--cpu-prof` profile; a normal exit writes it.
process.once("SIGINT", () => process.exit(130));
