// Language-server latency benchmark: generates a project of N modules (~1000 lines each,
// default 50 = ~50,000 lines), starts the real `fitz lsp` over stdio and measures
//   open-to-first-diagnostics, keystroke-to-diagnostics inside a function body (p50/p95),
//   completion, hover and definition (p50/p95), and the server's peak RSS.
// Usage: node bench/lsp/bench.mjs [--modules N] [--iterations K] [--bin path/to/fitz] [--log server.log]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LspClient, uriOf } from '../../tests/lsp/lsp_client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const MODULES = Number(opt('--modules', 50));
const ITER = Number(opt('--iterations', 40));
// Resolved now: the server is started in the generated project's folder.
const FITZ = path.resolve(opt('--bin', process.env.FITZ_BIN ?? path.resolve(here, '..', '..', 'build', 'bin', 'fitz')));
const FNS = 38;

function moduleSource(i) {
  const n = String(i);
  const L = [];
  L.push(`// Generated module ${n} of the language-server benchmark.`);
  if (i >= 1) L.push(`from m${i - 1} import Item${i - 1}, make${i - 1}, total${i - 1}`);
  if (i >= 2) L.push(`import m${i - 2}`);
  L.push('', `type Item${n} {`, '    name: Str', '    qty: Int = 1', '    price: Float', '    fn cost() -> Float => price * qty',
    '    fn label() -> Str {', '        return "{name} x{qty}"', '    }', '}', '');
  L.push(`fn make${n}(name: Str, qty: Int) -> Item${n} {`, `    return Item${n} { name: name, price: 1.5, qty: qty }`, '}', '');
  L.push(`fn total${n}(items: List<Item${n}>) -> Float {`, '    let sum = 0.0', '    for it in items {', '        sum = sum + it.cost()', '    }', '    return sum', '}', '');
  for (let f = 0; f < FNS; f++) {
    const other = i >= 1 ? `make${i - 1}` : `make${n}`;
    L.push(`fn work${n}_${f}(count: Int, text: Str) -> Int {`,
      '    let acc = 0', '    let words = text.split(" ")', '    for i in 0..count {', '        if i % 3 == 0 {',
      '            acc = acc + i * 2', '        } else {', '            acc = acc - 1', '        }', '    }',
      '    let label = "{text}: {acc}"', '    let parts = [1, 2, 3].map(fn(x) => x * count)',
      '    let scores = {"a": acc, "b": len(words)}', `    let item = make${n}(label, acc)`,
      `    let other = ${other}("other", 2)`, '    acc = acc + other.qty', '    match acc {', '        0 => print("zero")',
      '        _ => print(item.label())', '    }', '    let total = item.cost() + len(parts)',
      '    if total > 10.0 and len(scores) > 1 {', '        acc = acc + 1', '    }', '    return acc + len(parts)', '}', '');
  }
  return L.join('\n');
}

function writeProject(root) {
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'fitz.toml'), '[package]\nname = "benchproject"\nversion = "0.1.0"\nedition = "2026"\n\n[bin]\nmain = "src/main.fitz"\n');
  let lines = 0;
  for (let i = 0; i < MODULES; i++) {
    const s = moduleSource(i);
    lines += s.split('\n').length;
    fs.writeFileSync(path.join(root, 'src', `m${i}.fitz`), s);
  }
  const last = MODULES - 1;
  fs.writeFileSync(path.join(root, 'src', 'main.fitz'), `from m${last} import make${last}\nprint(make${last}("main", 1).label())\n`);
  return lines + 2;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (xs) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms (n=${xs.length})`;
const cpuPerKeystroke = (before, after) =>
  `${((after.ms - before.ms) / ITER).toFixed(2)} ms per keystroke` +
  (after.threads === before.threads ? '' : ` (threads ${before.threads} -> ${after.threads}: not comparable)`);
const now = () => Number(process.hrtime.bigint()) / 1e6;

// The server's CPU time so far, in ms: per keystroke it is much less sensitive to other load
// on the machine than the wall-clock latencies. Summed over its threads' scheduler statistics
// (nanoseconds) rather than read from /proc/PID/stat, whose 10 ms ticks are as coarse as a few
// keystrokes. A thread that ends between two readings takes its time with it: `threads` lets
// the caller see that none did.
function cpuMs(pid) {
  let ns = 0;
  let threads = 0;
  try {
    for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
        threads++;
      } catch {}
    }
  } catch {
    return { ms: NaN, threads: 0 };
  }
  return { ms: ns / 1e6, threads };
}

// Resolves once the server's log shows `n` complete publishes of the project's analysis (a
// publish of the rest after the focus module's, or of a whole analysis at once).
async function completeAnalysesIn(logFile, n) {
  const done = /published (the rest of )?project:\S+ in [\d.]+ ms\n/g;
  for (let waited = 0; waited < 60000; waited += 2) {
    let log = '';
    try {
      log = fs.readFileSync(logFile, 'utf8');
    } catch {}
    if ((log.match(done) ?? []).length >= n) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`the server's log shows fewer than ${n} complete analyses after 60 s`);
}

function rssMb(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(s);
    const rss = /VmRSS:\s+(\d+) kB/.exec(s);
    return { peak: hwm ? Number(hwm[1]) / 1024 : NaN, now: rss ? Number(rss[1]) / 1024 : NaN };
  } catch {
    return { peak: NaN, now: NaN };
  }
}

// Per keystroke: the server's analysis time and its analysis-to-published time (the first
// analysis, the open, is left out).
function serverSideTimes(log) {
  const analysed = [...log.matchAll(/analysed project:\S+ in ([\d.]+) ms \(load ([\d.]+), check ([\d.]+)/g)];
  const published = [...log.matchAll(/published project:\S+ in ([\d.]+) ms/g)].map((m) => Number(m[1]));
  if (analysed.length < 2) return;
  const col = (k) => analysed.slice(1).map((m) => Number(m[k]));
  console.log(`server side per keystroke: analysis ${fmt(col(1))}; load ${fmt(col(2))}; check ${fmt(col(3))}`);
  if (published.length >= 2) console.log(`server side analysis + publish: ${fmt(published.slice(1))}`);
}

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fitz-lsp-bench-')));
const lines = writeProject(root);
const mid = Math.floor(MODULES / 2);
const file = path.join(root, 'src', `m${mid}.fitz`);
const uri = uriOf(file);
let text = fs.readFileSync(file, 'utf8');
// The server's own log: analysis and publishing times, less sensitive to machine load than the
// client's round trips.
const logFile = opt('--log', path.join(root, 'server.log'));
const c = new LspClient(FITZ, { cwd: root, args: ['--log-file', logFile] });
const completeAnalyses = (n) => completeAnalysesIn(logFile, n);
try {
  await c.initialize(root);
  console.log(`project: ${MODULES} modules, ${lines} lines; editing src/m${mid}.fitz; ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}`);

  let t0 = now();
  c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'fitz', version: 1, text } });
  await c.diagnostics(uri, (p) => p.version === 1);
  const open = now() - t0;
  console.log(`open to first diagnostics: ${open.toFixed(1)} ms`);

  // The open's analysis goes on after the focus module's diagnostics (the modules after it);
  // keystrokes start once it is complete, so that its tail is not counted as theirs.
  await completeAnalyses(1);

  // Keystrokes inside a function body: type a character into a string, then delete it. Each
  // waits for the focus module's diagnostics (the latency a person sees) and then for the
  // complete analysis of the project to be published, so the server CPU per keystroke is the
  // whole of one keystroke's work, as when a person types (a keystroke arriving sooner stops
  // the analysis of the one before it, whose work is then partly never done).
  const lineOf = (needle) => text.split('\n').findIndex((l) => l.includes(needle));
  const bodyLine = lineOf(`let label = "{text}: {acc}"`);
  const col = text.split('\n')[bodyLine].indexOf('{text}');
  let version = 1;
  const keystroke = [];
  const cpuBefore = cpuMs(c.child.pid);
  for (let k = 0; k < ITER; k++) {
    const insert = k % 2 === 0;
    version++;
    const from = c.notifications.length;
    t0 = now();
    c.notify('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [insert
        ? { range: { start: { line: bodyLine, character: col }, end: { line: bodyLine, character: col } }, text: 'x' }
        : { range: { start: { line: bodyLine, character: col }, end: { line: bodyLine, character: col + 1 } }, text: '' }],
    });
    await c.diagnostics(uri, (p) => p.version === version, { fromIndex: from });
    keystroke.push(now() - t0);
    await completeAnalyses(k + 2);
  }
  console.log(`keystroke to diagnostics: ${fmt(keystroke)}; server CPU ${cpuPerKeystroke(cpuBefore, cpuMs(c.child.pid))}`);

  const timeReq = async (method, params) => {
    const xs = [];
    for (let k = 0; k < ITER; k++) {
      t0 = now();
      const r = await c.request(method, params);
      xs.push(now() - t0);
      if (r.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    }
    return xs;
  };
  const itemLine = lineOf('    let total = item.cost() + len(parts)');
  const dotCol = text.split('\n')[itemLine].indexOf('item.') + 5;
  console.log(`completion (item.): ${fmt(await timeReq('textDocument/completion', { textDocument: { uri }, position: { line: itemLine, character: dotCol } }))}`);
  console.log(`hover (item): ${fmt(await timeReq('textDocument/hover', { textDocument: { uri }, position: { line: itemLine, character: dotCol - 2 } }))}`);
  const otherLine = lineOf('    let other = make');
  const makeCol = text.split('\n')[otherLine].indexOf('make') + 1;
  console.log(`definition (make<i-1>, other module): ${fmt(await timeReq('textDocument/definition', { textDocument: { uri }, position: { line: otherLine, character: makeCol } }))}`);
  const r = rssMb(c.child.pid);
  console.log(`server RSS: ${r.now.toFixed(0)} MB now, ${r.peak.toFixed(0)} MB peak`);
  await c.shutdown();
  serverSideTimes(fs.readFileSync(logFile, 'utf8'));
} finally {
  if (c.child.exitCode === null) c.child.kill();
  fs.rmSync(root, { recursive: true, force: true });
}
