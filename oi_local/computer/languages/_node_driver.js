// The child side of the JavaScript language: `node --expose-internals _node_driver.js CMD_FD CTL_FD`.
// Cells arrive on CMD_FD as "<byte length>[ drain]\n<code>"; control lines go to CTL_FD:
// "L<line>" (active line), "D<status>" (done). The parent stops a cell with SIGINT.
//
// Active lines: only line 1 is reported at the start of a cell. Stepping through lines would need
// the inspector protocol (node --inspect), far too heavy for every run.
'use strict';
const fs = require('fs');
const net = require('net');
const vm = require('vm');
const util = require('util');
const Module = require('module');

const CMD = Number(process.argv[2]);
const CTL = Number(process.argv[3]);
process.argv.splice(1, 3); // the code sees ['node'], like the REPL
globalThis.require = Module.createRequire(process.cwd() + '/');

const pause = new Int32Array(new SharedArrayBuffer(4));
function writeAll(fd, data) {
  const b = typeof data === 'string' ? Buffer.from(data) : data;
  for (let off = 0; off < b.length;) {
    try {
      off += fs.writeSync(fd, b, off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 1); // the pipe is full: let the reader catch up
    }
  }
}
const send = (text) => writeAll(CTL, text);

// stdout/stderr write synchronously with plain write(2) calls: output keeps its true order with
// the control messages, a huge write is complete before "done", and an interrupt that lands
// inside console.log (breakOnSigint stops the script anywhere) cannot leave a node stream stuck.
function syncStream(fd) {
  const stream = new (require('stream').Writable)({ write(chunk, enc, cb) { writeAll(fd, chunk); cb(); } });
  stream.write = (chunk, encoding, cb) => {
    if (typeof encoding === 'function') cb = encoding;
    writeAll(fd, typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk);
    if (typeof cb === 'function') process.nextTick(cb);
    return true;
  };
  stream.fd = fd;
  return stream;
}
const stdout = syncStream(1);
const stderr = syncStream(2);
Object.defineProperty(process, 'stdout', { configurable: true, enumerable: true, get: () => stdout });
Object.defineProperty(process, 'stderr', { configurable: true, enumerable: true, get: () => stderr });
globalThis.console = new console.Console({ stdout, stderr });

// Top-level let/const/class become `var` so they persist across cells AND can be declared again
// in a later cell (V8 rejects redeclaring a script-scope let/const forever). A cell with top-level
// await is wrapped in an async function; its top-level declarations are hoisted to globals and
// its final expression is returned. Parsing uses the acorn copy that ships inside node.
let acorn;
function getAcorn() {
  if (acorn === undefined) {
    try { acorn = require('internal/deps/acorn/acorn/dist/acorn'); } catch { acorn = null; }
  }
  return acorn;
}

function hasTopLevelAwait(node) {
  if (!node || typeof node.type !== 'string') return false;
  if (node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && node.await)) return true;
  if (node.type.includes('Function')) return false; // await inside functions is not top level
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (Array.isArray(v)) {
      for (const c of v) if (c && typeof c === 'object' && hasTopLevelAwait(c)) return true;
    } else if (v && typeof v === 'object' && hasTopLevelAwait(v)) return true;
  }
  return false;
}

function patternNames(p, out) {
  if (!p) return;
  switch (p.type) {
    case 'Identifier': out.push(p.name); break;
    case 'ObjectPattern': for (const prop of p.properties) patternNames(prop.type === 'RestElement' ? prop.argument : prop.value, out); break;
    case 'ArrayPattern': for (const el of p.elements) patternNames(el, out); break;
    case 'RestElement': patternNames(p.argument, out); break;
    case 'AssignmentPattern': patternNames(p.left, out); break;
  }
}

function transform(src) {
  const a = getAcorn();
  if (!a) { // fallback: line-start let/const only
    return { code: src.replace(/^(let|const)(?=\s)/gm, (k) => 'var' + ' '.repeat(k.length - 3)), hoist: [] };
  }
  let ast;
  try {
    ast = a.parse(src, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, allowHashBang: true });
  } catch {
    return { code: src, hoist: [] }; // V8 reports the syntax error with its own message
  }
  const tla = src.includes('await') && hasTopLevelAwait(ast);
  const edits = []; // [start, end, replacement]
  const hoist = [];
  let prelude = '';
  const text = (n) => src.slice(n.start, n.end);
  for (const n of ast.body) {
    if (n.type === 'VariableDeclaration') {
      if (tla) {
        for (const d of n.declarations) patternNames(d.id, hoist);
        const parts = n.declarations.filter((d) => d.init).map((d) => text(d.id) + ' = ' + text(d.init));
        edits.push([n.start, n.end, parts.length ? '(' + parts.join(', ') + ');' : ';']);
      } else if (n.kind !== 'var') {
        edits.push([n.start, n.start + n.kind.length, 'var' + ' '.repeat(n.kind.length - 3)]);
      }
    } else if (n.type === 'ClassDeclaration') {
      if (tla) hoist.push(n.id.name);
      edits.push([n.start, n.start, (tla ? '' : 'var ') + n.id.name + ' = ']);
      edits.push([n.end, n.end, ';']);
    } else if (n.type === 'FunctionDeclaration' && tla) {
      hoist.push(n.id.name);
      prelude += `globalThis[${JSON.stringify(n.id.name)}] = ${n.id.name}; `;
    }
  }
  const last = ast.body[ast.body.length - 1];
  if (tla && last && last.type === 'ExpressionStatement') {
    edits.push([last.start, last.end, 'return (' + text(last.expression) + ');']);
  }
  let code = src;
  edits.sort((x, y) => y[0] - x[0] || y[1] - x[1]);
  for (const [s, e, r] of edits) code = code.slice(0, s) + r + code.slice(e);
  if (tla) code = '(async () => { ' + prelude + code + '\n})()'; // same line numbers
  return { code, hoist };
}

function cleanStack(stack) {
  const out = [];
  for (const line of stack.split('\n')) {
    if (/^\s+at /.test(line)) {
      if (line.includes('node:vm') || line.includes(__filename)) break; // the driver's frames
      if (line.includes('node:internal/process/')) continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

function printError(e, prefix = '') {
  let text;
  if (e && e.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') text = 'Interrupted (SIGINT).';
  else if (e instanceof Interrupted) text = e.message;
  else if (e && typeof e.stack === 'string') text = prefix + cleanStack(e.stack);
  else text = 'Uncaught ' + prefix + util.inspect(e);
  process.stderr.write(text + '\n');
}

// An interrupt cannot cancel a promise, so the timers the code started are cleared instead: a
// stopped `await sleep(...)` or setInterval loop does not wake up later. (Pending I/O such as a
// fetch still completes in the background.)
const timers = { Timeout: new Set(), Immediate: new Set() };
function track(kind, real, clear) {
  const wrapped = function (fn, ...rest) {
    if (typeof fn !== 'function') return real(fn, ...rest); // let node raise its usual error
    const handle = real(function (...args) {
      if (kind === 'Immediate' || !handle._repeat) timers[kind].delete(handle);
      return fn.apply(this, args);
    }, ...rest);
    timers[kind].add(handle);
    return handle;
  };
  for (const key of Reflect.ownKeys(real)) { // e.g. util.promisify.custom
    if (!(key in wrapped)) try { wrapped[key] = real[key]; } catch {}
  }
  return wrapped;
}
const realClearTimeout = globalThis.clearTimeout;
const realClearImmediate = globalThis.clearImmediate;
globalThis.setTimeout = track('Timeout', globalThis.setTimeout);
globalThis.setInterval = track('Timeout', globalThis.setInterval);
globalThis.setImmediate = track('Immediate', globalThis.setImmediate);
function clearTimers() {
  for (const t of timers.Timeout) realClearTimeout(t);
  for (const t of timers.Immediate) realClearImmediate(t);
  timers.Timeout.clear();
  timers.Immediate.clear();
}

class Interrupted extends Error {}
let cancelWait = null;
let busy = false;
let sigintPending = false; // SIGINT came while the cell was between its script and its await
let lateError = false;

process.on('SIGINT', () => { // while awaiting; sync code is stopped by breakOnSigint instead
  if (!busy) return;
  clearTimers();
  if (cancelWait) cancelWait(new Interrupted('Interrupted (SIGINT) while waiting for a promise.'));
  else sigintPending = true;
});
process.on('uncaughtException', (e) => { printError(e, 'Uncaught '); if (busy) lateError = true; });
process.on('unhandledRejection', (e) => { printError(e, 'Uncaught (in promise) '); if (busy) lateError = true; });

function waitFor(value) {
  return new Promise((resolve, reject) => {
    if (sigintPending) reject(new Interrupted('Interrupted (SIGINT) while waiting for a promise.'));
    cancelWait = reject;
    Promise.resolve(value).then(resolve, reject);
  }).finally(() => { cancelWait = null; });
}

let cellNo = 0;
async function runCell(src) {
  cellNo += 1;
  send('L1\n');
  let status = 0;
  lateError = false;
  try {
    const t = transform(src);
    if (t.hoist.length) {
      try { vm.runInThisContext('var ' + t.hoist.join(', ') + ';'); } catch {}
    }
    if (sigintPending) throw new Interrupted('Interrupted (SIGINT).');
    let value = vm.runInThisContext(t.code, { filename: `cell-${cellNo}`, breakOnSigint: true });
    if (value && typeof value.then === 'function') value = await waitFor(value);
    if (value !== undefined) process.stdout.write(util.inspect(value) + '\n');
  } catch (e) {
    status = (e && e.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') || e instanceof Interrupted ? 130 : 1;
    if (status === 130) clearTimers();
    printError(e);
  }
  if (lateError && status === 0) status = 1;
  return status;
}

// Node bug workaround: a SIGINT that arrives just as a breakOnSigint script ends can leave a
// stale post in node's SIGINT watchdog semaphore, which then interrupts the NEXT such script at
// once. After a stopped run, a short breakOnSigint script absorbs it before the real cell runs.
function drainStaleSigint() {
  for (let i = 0; i < 3; i++) {
    try {
      vm.runInThisContext('{ const end = Date.now() + 50; while (Date.now() < end); }', { breakOnSigint: true });
      return; // nothing stale
    } catch (e) {
      if (!e || e.code !== 'ERR_SCRIPT_EXECUTION_INTERRUPTED') return;
    }
  }
}

let pending = Buffer.alloc(0);
const queue = [];
async function drain() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const cell = queue.shift();
    if (cell.drain) drainStaleSigint();
    const status = await runCell(cell.src);
    sigintPending = false;
    send('D' + status + '\n');
  }
  busy = false;
}

const input = new net.Socket({ fd: CMD, readable: true, writable: false });
input.on('data', (chunk) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  for (;;) {
    const nl = pending.indexOf(10);
    if (nl < 0) break;
    const [size, flag] = pending.subarray(0, nl).toString().split(' ');
    const n = Number(size);
    if (pending.length < nl + 1 + n) break;
    queue.push({ src: pending.subarray(nl + 1, nl + 1 + n).toString('utf8'), drain: flag === 'drain' });
    pending = pending.subarray(nl + 1 + n);
  }
  drain();
});
input.on('end', () => process.exit(0)); // the parent is gone
input.on('error', () => process.exit(0));
