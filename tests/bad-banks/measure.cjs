// Runs an Emscripten node build as if started directly (`node measure.cjs tool.js ARGS...` is
// `node tool.js ARGS...`) and, when it exits, writes its CPU time, peak resident memory and wasm
// memory size to file descriptor 3 as JSON. run-corpus.mjs reads them: spawnSync gives no
// resource usage of its own.
'use strict';
const fs = require('fs');
const path = require('path');

const tool = path.resolve(process.argv[2]);
process.argv.splice(1, 2, tool);
const started = process.hrtime.bigint();
process.on('exit', (code) => {
  const usage = process.resourceUsage();
  const module = require.cache[tool] && require.cache[tool].exports;
  const stats = {
    exitCode: code,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    wallMs: Number(process.hrtime.bigint() - started) / 1e6,
    maxRssMb: usage.maxRSS / 1024,
    wasmMemoryMb: module && module.HEAP8 ? module.HEAP8.length / 1048576 : null,
  };
  try { fs.writeSync(3, JSON.stringify(stats)); } catch (e) { /* not started by run-corpus.mjs */ }
});
require(tool);
