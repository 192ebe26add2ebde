// A kind's provider in the floor: create, read, update and delete return at once; diff compares declared values.
// With BENCH_CALL_LOG set, each call appends its arrival time (epoch ms) to that file: the engine's own pace, which
// the latency mode compares the project's API span with (about 20 µs a call, well under 0.1% of any operation).
const { appendFileSync } = require("node:fs");
const { randomUUID } = require("node:crypto");

const callLog = process.env.BENCH_CALL_LOG;
const arrived = callLog ? () => appendFileSync(callLog, `${Date.now()}\n`) : () => {};

module.exports = () => ({
  diff: async (_id, olds, news) => {
    arrived();
    return {
      changes: Object.keys(news).some(
        (key) => key !== "__provider" && JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
      ),
    };
  },
  create: async (inputs) => {
    arrived();
    return { id: randomUUID(), outs: inputs };
  },
  read: async (id, props) => {
    arrived();
    return { id, props };
  },
  update: async (_id, _olds, news) => {
    arrived();
    return { outs: news };
  },
  delete: async () => {
    arrived();
  },
});
