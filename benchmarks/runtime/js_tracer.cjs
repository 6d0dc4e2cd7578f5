'use strict'
// Records where a library's own code makes errors, to score mining against.
//
// Loaded with NODE_OPTIONS="--require <this file>" so every node process of a test run
// (runners spawn one per test file) carries it. It reads ERRDEX_RT_ROOTS (the library's
// source folders, path.delimiter separated), ERRDEX_RT_REPO (recorded paths are relative
// to it) and ERRDEX_RT_OUT (a folder: each process writes js-<pid>.jsonl there at exit).
//
// The global error constructors are replaced by Proxies whose construct / apply traps make
// the error with Reflect so subclasses keep working, then record its message, name and the
// first stack frame in the library's source that is not a constructor of the error's own
// class chain (so `class E extends Error { constructor () { super(...) } }` is recorded
// where `new E` is written). An error made but never thrown is counted too: JavaScript
// has no cheap hook on `throw`. Errors the engine makes itself (JSON.parse, property
// access on undefined) do not go through the global constructors and are not seen.

const fs = require('fs')
const path = require('path')

const MAX_MESSAGE = 2000
const roots = (process.env.ERRDEX_RT_ROOTS || '').split(path.delimiter).filter(Boolean)
  .map((root) => path.join(fs.realpathSync(root), path.sep))
const repo = fs.realpathSync(process.env.ERRDEX_RT_REPO || process.cwd())
const out = process.env.ERRDEX_RT_OUT || ''
const NAMES = ['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError',
  'EvalError', 'URIError', 'AggregateError']

const seen = new Map()
const relByFile = new Map()
const originalCapture = Error.captureStackTrace
let busy = false

function relative (file) {
  if (!file) return ''
  let rel = relByFile.get(file)
  if (rel === undefined) {
    let real = file.startsWith('file://') ? file.slice(7) : file
    try { real = fs.realpathSync(real) } catch { rel = '' }
    if (rel === undefined) {
      rel = roots.some((root) => real.startsWith(root)) ? path.relative(repo, real) : ''
    }
    relByFile.set(file, rel)
  }
  return rel
}

function chainNames (cls) {
  const names = new Set()
  for (let c = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (typeof c.name === 'string' && c.name) names.add(c.name)
  }
  return names
}

function callSites () {
  const holder = {}
  const prepare = Error.prepareStackTrace
  const limit = Error.stackTraceLimit
  Error.prepareStackTrace = (_, sites) => sites
  Error.stackTraceLimit = 40
  try {
    originalCapture(holder, callSites)
    return Array.isArray(holder.stack) ? holder.stack : []
  } finally {
    Error.prepareStackTrace = prepare
    Error.stackTraceLimit = limit
  }
}

function record (error, cls) {
  if (busy || error === null || typeof error !== 'object') return
  busy = true
  try {
    const skip = chainNames(cls)
    for (const site of callSites().slice(2)) {
      const fn = site.getFunctionName() || ''
      if (site.isConstructor() && skip.has(fn)) continue
      const file = relative(site.getFileName())
      if (!file) return
      let message = String(error.message === undefined ? '' : error.message)
      message = message.slice(0, MAX_MESSAGE)
      const name = String((cls && cls.name) || error.name || 'Error')
      const key = JSON.stringify([file, site.getLineNumber(), name, message])
      seen.set(key, (seen.get(key) || 0) + 1)
      return
    }
  } catch {
    // never let recording change what the library does
  } finally {
    busy = false
  }
}

for (const name of NAMES) {
  const original = globalThis[name]
  if (typeof original !== 'function') continue
  const proxy = new Proxy(original, {
    construct (target, args, newTarget) {
      const error = Reflect.construct(target, args, newTarget)
      record(error, newTarget === proxy ? target : newTarget)
      return error
    },
    apply (target, self, args) {
      const error = Reflect.apply(target, self, args)
      record(error, target)
      return error
    }
  })
  Object.defineProperty(original.prototype, 'constructor', {
    value: proxy, writable: true, configurable: true, enumerable: false
  })
  globalThis[name] = proxy
}

function write () {
  if (!out || seen.size === 0) return
  fs.mkdirSync(out, { recursive: true })
  const lines = []
  for (const [key, count] of seen) {
    const [file, line, cls, message] = JSON.parse(key)
    lines.push(JSON.stringify({ lang: 'javascript', file, line, class: cls, message, op: 'new', count }))
  }
  fs.writeFileSync(path.join(out, `js-${process.pid}.jsonl`), lines.join('\n') + '\n')
  seen.clear()
}

if (roots.length) process.on('exit', write)
