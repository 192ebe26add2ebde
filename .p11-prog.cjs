const pulumi = require("@pulumi/pulumi");
const variant = process.argv[2]; const n = Number(process.argv[3] || 500);
pulumi.runtime.setMocks({
  newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
  call: (args) => args.inputs,
}, "docs-bench", "dev", false);
const kinds = variant === "floor" ? require("./.p11-floor/index.js") : require("./dist/provider/index.js");
const { declare } = require("./bench/program/shape.js");
const c0 = process.cpuUsage(); const t0 = Date.now();
const declared = declare(kinds, { n, rename: false, organizationId: "org", spaceIds: ["s1", "s2"], userIds: ["u1", "u2", "u3"] });
Promise.all(declared.map((r) => new Promise((res) => r.urn.apply(res)))).then(() => {
  setTimeout(() => {
    const c = process.cpuUsage(c0);
    console.log(`${variant} n=${n}: ${Date.now() - t0} ms wall, ${((c.user + c.system) / 1000) | 0} ms cpu, rss ${(process.memoryUsage().rss / 1e6) | 0} MB, heap ${(process.memoryUsage().heapUsed / 1e6) | 0} MB`);
  }, 200);
});
