// ESLint rule `project/import-cycles`: no import cycle among the project's TypeScript files, type-only
// imports counted. (import-x/no-cycle skips `import type`, but a type cycle is still a knot: two
// modules that cannot be read, moved or tested one without the other.) The import graph is read with
// TypeScript's own pre-processor (every `import`, `import type`, `export … from` and `import()` with a
// literal specifier) and cycles are its strongly connected components; each import that stays inside
// a cycle is reported with the whole cycle. The same graph serves `project/folder-cycles`
// (lintFolderCycles.mjs).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOTS = ['src', 'workflows', 'activities', 'test', 'bench'];

/** Per project root: the file set and each file's imports with their positions, and the components. */
const graphs = new Map();

function tsFiles(dir, out) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') tsFiles(p, out);
    } else if (/\.(m?ts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The project file a relative specifier names (TypeScript or plain-JS module), or null. */
export function resolveIn(files, from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec).replace(/\.m?js$/, '');
  for (const c of [`${base}.ts`, `${base}.mts`, `${base}.mjs`, path.join(base, 'index.ts')]) if (files.has(c)) return c;
  return null;
}

/** The project's import graph under `root` (files, their imports, their import cycles), rebuilt when a file changes. */
/** Tarjan's strongly connected components of the graph given by `nodes` and `successors(node)`. */
export function stronglyConnected(nodes, successors) {
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    stack = [],
    onStack = new Set(),
    components = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of successors(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return components;
}

export function importGraph(root) {
  const files = new Set(ROOTS.flatMap((r) => tsFiles(path.join(root, r), [])));
  const stamp = [...files].map((f) => `${f}:${fs.statSync(f).mtimeMs}`).join('|');
  const cached = graphs.get(root);
  if (cached?.stamp === stamp) return cached;
  const edges = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    edges.set(
      file,
      importedFiles.map((i) => ({ to: resolveIn(files, file, i.fileName), spec: i.fileName })).filter((e) => e.to),
    );
  }
  const componentOf = new Map();
  for (const component of stronglyConnected(files, (v) => edges.get(v).map((e) => e.to))) {
    const [v] = component;
    const cyclic = component.length > 1 || edges.get(v).some((e) => e.to === v);
    for (const m of component) componentOf.set(m, cyclic ? component : null);
  }
  const graph = { stamp, edges, componentOf };
  graphs.set(root, graph);
  return graph;
}

export const importCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow import cycles among project files, counting type-only imports' },
    messages: { cycle: 'Import cycle (type-only imports counted): {{cycle}}' },
    schema: [],
  },
  create(context) {
    const file = path.resolve(context.filename);
    const root = context.cwd;
    return {
      Program(program) {
        const { componentOf } = importGraph(root);
        const component = componentOf.get(file);
        if (!component) return;
        const cycle = component
          .map((f) => path.relative(root, f))
          .sort()
          .join(' ↔ ');
        const members = new Set(component);
        const files = new Set(componentOf.keys());
        let reported = false;
        for (const node of program.body) {
          const source = node.source?.value;
          if (typeof source !== 'string') continue;
          const to = resolveIn(files, file, source);
          if (to && members.has(to)) {
            context.report({ node, messageId: 'cycle', data: { cycle } });
            reported = true;
          }
        }
        // Closed by an import() inside a function: the file itself is reported.
        if (!reported) context.report({ node: program, messageId: 'cycle', data: { cycle } });
      },
    };
  },
};
