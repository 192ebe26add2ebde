const fs = require("fs"); const dir = process.argv[2];
for (const f of fs.readdirSync(dir).filter(f => f.endsWith(".cpuprofile"))) {
  const p = JSON.parse(fs.readFileSync(`${dir}/${f}`));
  const dt = {}; for (let i = 0; i < p.samples.length; i++) dt[p.samples[i]] = (dt[p.samples[i]] || 0) + (p.timeDeltas[i] || 0);
  const self = {}; const byFile = {};
  for (const n of p.nodes) { const t = (dt[n.id] || 0) / 1000; const cf = n.callFrame; const k = `${cf.functionName || "(anon)"} ${cf.url.replace(/.*node_modules\//, "").replace(/.*wt-p11\//, "")}:${cf.lineNumber}`; self[k] = (self[k] || 0) + t;
    const file = cf.url.includes("/wt-p11/dist") || cf.url.includes("/wt-p11/provider") ? "PACKAGE " + cf.url.replace(/.*wt-p11\//, "") : cf.url.includes("@pulumi") ? "@pulumi/pulumi" : cf.url.includes("node_modules") ? cf.url.replace(/.*node_modules\//, "").split("/")[0] : cf.url ? "other " + cf.url.slice(0, 40) : cf.functionName; byFile[file] = (byFile[file] || 0) + t; }
  const total = Object.values(self).reduce((a, b) => a + b, 0);
  console.log(f, "total ms", total | 0);
  console.log(Object.entries(byFile).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ${k}`).join("\n"));
  console.log(Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ${k}`).join("\n"));
}
