// Where each call site goes, by the TypeScript LanguageService (getDefinitionAtPosition).
//
//   node definitions.js <typescript module dir> <project root>  < sites.jsonl  > answers.jsonl
//
// Input: one JSON object a line, {"file": root-relative path, "line": 0-based, "character": UTF-16}.
// Answers that name no definition are left out: a parameter, a destructured name, a variable holding
// a value that is not a function, an anonymous closure returned by a factory.
// Output: one JSON object a line, in the same order, {"places": [[path, 1-based line], ...]} where path
// is root-relative, or "outside" for lib.d.ts / node_modules / anything outside the root; or {"error": ...}.
// The program is tsconfig.json's files when the root has one (plus the asked files), else every
// .ts/.tsx/.mts/.cts/.js/.jsx/.mjs/.cjs file under the root (node_modules and dot folders left out),
// with allowJs and checkJs false.
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");

const [tsDir, rootArg] = process.argv.slice(2);
const ts = require(path.join(tsDir, "node_modules", "typescript"));
const root = path.resolve(rootArg);
const EXTS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

function walk(dir, out) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    if (ent.name === "node_modules" || ent.name.startsWith(".")) continue;
    const p = path.join(dir, ent.name);
    if (ent.isDirectory()) walk(p, out);
    else if (EXTS.some((e) => ent.name.endsWith(e))) out.push(p);
  }
  return out;
}

function program(asked) {
  const defaults = {
    allowJs: true, checkJs: false, noEmit: true, target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10,
    jsx: ts.JsxEmit.Preserve, esModuleInterop: true, skipLibCheck: true,
  };
  const configPath = path.join(root, "tsconfig.json");
  let options = defaults;
  let files = [];
  if (fs.existsSync(configPath)) {
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(read.config || {}, ts.sys, root);
    options = Object.assign({}, parsed.options, { allowJs: true, checkJs: false, noEmit: true, skipLibCheck: true });
    files = parsed.fileNames;
  } else {
    files = walk(root, []);
  }
  const names = new Set(files.map((f) => path.resolve(f)));
  for (const f of asked) names.add(path.resolve(root, f));
  return { options, files: [...names] };
}

function service(options, files) {
  const versions = new Map(files.map((f) => [f, "1"]));
  const host = {
    getScriptFileNames: () => files,
    getScriptVersion: (f) => versions.get(f) || "1",
    getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined),
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

function nodeAt(sf, pos) {
  let found;
  (function visit(node) {
    if (node.getStart(sf) === pos && ts.isIdentifier(node)) found = node;
    if (node.pos <= pos && pos < node.end) ts.forEachChild(node, visit);
  })(sf);
  return found;
}

const VALUE_INITS = new Set([ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.ClassExpression]);

// The function node an answer starts at, when it is a function expression or an arrow function.
function functionAt(sf, pos) {
  let found;
  (function visit(node) {
    if ((ts.isFunctionExpression(node) || ts.isArrowFunction(node)) && node.getStart(sf) === pos) found = found || node;
    if (node.pos <= pos && pos < node.end) ts.forEachChild(node, visit);
  })(sf);
  return found;
}

const NAMING_PARENTS = new Set([ts.SyntaxKind.VariableDeclaration, ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.PropertyDeclaration, ts.SyntaxKind.BinaryExpression, ts.SyntaxKind.ExportAssignment]);

// `import x from 'pkg'` / `const x = require('pkg')` with the package not installed: the answer stops at
// the import, but the definition is in the package.
function fromPackage(prog, d) {
  const sf = prog.getSourceFile(d.fileName);
  const id = sf && nodeAt(sf, d.textSpan.start);
  let n = id && id.parent;
  let spec;
  for (let i = 0; n && i < 6 && spec === undefined; i++, n = n.parent) {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) spec = n.moduleSpecifier.text;
    else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)
             && ts.isStringLiteral(n.moduleReference.expression)) spec = n.moduleReference.expression.text;
    else if (ts.isVariableDeclaration(n) && n.initializer) {
      let e = n.initializer;
      while (e && (ts.isPropertyAccessExpression(e) || ts.isParenthesizedExpression(e))) e = e.expression;
      if (e && ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "require"
          && e.arguments.length && ts.isStringLiteral(e.arguments[0])) spec = e.arguments[0].text;
      else break;
    }
  }
  return spec !== undefined && !spec.startsWith(".") && !spec.startsWith("/");
}

function callable(prog, d) {
  if (d.kind === "parameter") return false;
  const fsf = prog.getSourceFile(d.fileName);
  const fn = fsf && functionAt(fsf, d.textSpan.start);
  if (fn && !fn.name) {
    // the called signature is an anonymous closure (`return function (obj) {...}` of a factory): no
    // definition has a name there, and the enclosing function is not what the call runs
    let p = fn.parent;
    while (p && ts.isParenthesizedExpression(p)) p = p.parent;
    if (!p || !NAMING_PARENTS.has(p.kind)) return false;
  }
  if (!["var", "let", "const", "local var", "property"].includes(d.kind)) return true;
  const sf = prog.getSourceFile(d.fileName);
  if (!sf) return true;
  const id = nodeAt(sf, d.textSpan.start);
  if (!id || !id.parent) return true;
  const decl = id.parent;
  if (ts.isBindingElement(decl)) return false;  // destructured out of a value: unknown
  if (ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl) || ts.isPropertyDeclaration(decl)) {
    let init = decl.initializer;
    while (init && (ts.isParenthesizedExpression(init) || ts.isAsExpression(init))) init = init.expression;
    if (!init) return ts.isPropertyDeclaration(decl);  // a typed class field: its type says what it holds
    return VALUE_INITS.has(init.kind);
  }
  return true;
}

// A declaration inside `declare global { ... }` or `declare module "pkg" { ... }` types something outside the
// project (the runtime's `Request`, a package's export) by declaration merging: it is not what a call runs.
function ambient(prog, d) {
  const sf = prog.getSourceFile(d.fileName);
  let n = sf && nodeAt(sf, d.textSpan.start);
  for (; n; n = n.parent) {
    if (ts.isModuleDeclaration(n) && ((n.flags & ts.NodeFlags.GlobalAugmentation) || ts.isStringLiteral(n.name))) {
      return true;
    }
  }
  return false;
}

// An overload signature (a declaration without a body) stands for its implementation, as in lore; the
// method signatures of an interface have none: the last one stands for them (lore binds the last).
function implementation(prog, sf, pos) {
  const id = nodeAt(sf, pos);
  const decl = id && id.parent;
  if (!decl || !(ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl) || ts.isMethodSignature(decl))
      || decl.body) return pos;
  const sym = prog.getTypeChecker().getSymbolAtLocation(id);
  const decls = ((sym && sym.declarations) || []).filter((x) => x.getSourceFile() === sf && x.kind === decl.kind);
  const impl = decls.find((x) => x.body) || (ts.isMethodSignature(decl) ? decls[decls.length - 1] : null);
  return impl && impl.name ? impl.name.getStart(sf) : pos;
}

function answer(ls, site) {
  const file = path.resolve(root, site.file);
  const prog = ls.getProgram();
  const sf = prog.getSourceFile(file);
  if (!sf) return { error: "file not in the program" };
  let pos;
  try {
    pos = ts.getPositionOfLineAndCharacter(sf, site.line, site.character);
  } catch (e) {
    return { error: "position outside the file" };
  }
  let defs = ls.getDefinitionAtPosition(file, pos) || [];
  // `new X()` answers the class and its constructor: the constructor stands for both (as in lore).
  // A class without one of its own answers its class and the inherited constructor: that constructor.
  const ctors = defs.filter((d) => d.kind === "constructor");
  if (ctors.length) defs = defs.filter((d) => d.kind !== "class");
  const places = [];
  for (const d of defs) {
    // A parameter or a variable holding a value that is not a function is no definition of a call:
    // the oracle does not know what was passed, so the site has no answer (counted neither way).
    if (!callable(prog, d)) continue;
    const rel = path.relative(root, d.fileName);
    if (rel.startsWith("..") || path.isAbsolute(rel) || rel.split(path.sep).includes("node_modules")
        || fromPackage(prog, d)) {
      places.push(["outside", 0]);
      continue;
    }
    const target = prog.getSourceFile(d.fileName);
    const start = target ? implementation(prog, target, d.textSpan.start) : 0;
    const line = target ? target.getLineAndCharacterOfPosition(start).line + 1 : 0;
    const place = [rel.split(path.sep).join("/"), line];
    if (ambient(prog, d)) place.push("ambient");
    if (!places.some((p) => p[0] === place[0] && p[1] === place[1])) places.push(place);
  }
  return { places };
}

const sites = [];
readline.createInterface({ input: process.stdin }).on("line", (l) => {
  if (l.trim()) sites.push(JSON.parse(l));
}).on("close", () => {
  const { options, files } = program(sites.map((s) => s.file));
  const ls = service(options, files);
  const out = [];
  for (const s of sites) {
    let a;
    try {
      a = answer(ls, s);
    } catch (e) {
      a = { error: String(e && e.message || e).slice(0, 200) };
    }
    out.push(JSON.stringify(a));
  }
  process.stdout.write(out.join("\n") + "\n");
});
