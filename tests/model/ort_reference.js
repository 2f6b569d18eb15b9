// Runs an ONNX model with ONNX Runtime (npm onnxruntime-node) on float32 inputs read from raw
// files and writes each output as raw float32 plus a JSON line of shapes, for the model tests
// and benchmarks. Usage:
//   node ort_reference.js MODEL OUT_DIR THREADS ITERATIONS name=DIMS=FILE...
// DIMS as 1x3x48x192. With ITERATIONS > 0 it also times that many runs and prints
// "latency_ms": [...] after a warm-up run; "create_ms" is the session creation time.
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

async function main() {
  const [model, outDir, threads, iterations, ...specs] = process.argv.slice(2);
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads), interOpNumThreads: 1, executionMode: 'sequential',
  });
  const createMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const feeds = {};
  for (const spec of specs) {
    const [name, dims, file] = spec.split('=');
    const shape = dims.split('x').map(Number);
    const buf = fs.readFileSync(file);
    const data = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    feeds[name] = new ort.Tensor('float32', data, shape);
  }
  const results = await session.run(feeds);
  const shapes = {};
  session.outputNames.forEach((name, i) => {
    const t = results[name];
    fs.writeFileSync(path.join(outDir, `out${i}.bin`), Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    shapes[name] = t.dims;
  });
  const report = { outputs: session.outputNames, shapes, create_ms: createMs };
  const n = Number(iterations);
  if (n > 0) {
    const lat = [];
    for (let i = 0; i < n; ++i) {
      const t0 = process.hrtime.bigint();
      await session.run(feeds);
      lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    report.latency_ms = lat;
  }
  console.log(JSON.stringify(report));
}
main().catch((e) => { console.error(e.message || e); process.exit(1); });
