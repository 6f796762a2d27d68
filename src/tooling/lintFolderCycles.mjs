// ESLint rule `project/folder-cycles`: the code reads as floors, top-down. Its rooms are the folders
// directly under src/ (and each file directly in src/), workflows/, activities/ and bench/; an import
// from a file of one room to a file of another is an edge between the rooms (type-only imports
// counted, as in `project/import-cycles`). Rooms whose edges form a cycle are one knot: none of them
// can be read without the others, and some import points upwards. Each import that stays inside such
// a cycle is reported, unless the rule's options list that cycle as an exception, with its reason
// (eslint.config.js: the one place exceptions are written).
import path from 'node:path';
import { importGraph, resolveIn, stronglyConnected } from './lintImportCycles.mjs';

const ROOMS = ['src', 'workflows', 'activities', 'bench'];

/** The room of a file (`src/engines/`, `src/config.ts`, `workflows/`…), or null outside the rooms (test/). */
export function roomOf(root, file) {
  const [top, second, third] = path.relative(root, file).split(path.sep);
  if (!ROOMS.includes(top)) return null;
  if (top !== 'src') return `${top}/`;
  return third === undefined ? `src/${second}` : `src/${second}/`;
}

/** Per import graph: each room in a cycle → the sorted rooms of its cycle. */
const cyclesOf = new WeakMap();

function roomCycles(root, graph) {
  const cached = cyclesOf.get(graph);
  if (cached) return cached;
  const edges = new Map();
  for (const [file, imports] of graph.edges) {
    const from = roomOf(root, file);
    if (!from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    for (const { to } of imports) {
      const target = roomOf(root, to);
      if (target && target !== from) edges.get(from).add(target);
    }
  }
  const cycleOf = new Map();
  for (const component of stronglyConnected(edges.keys(), (room) => edges.get(room) ?? [])) {
    component.sort();
    if (component.length > 1) for (const room of component) cycleOf.set(room, component);
  }
  cyclesOf.set(graph, cycleOf);
  return cycleOf;
}

export const folderCycles = {
  meta: {
    type: 'problem',
    docs: {
      description: "Disallow import cycles among the project's top-level folders (rooms), except the listed ones",
    },
    messages: {
      cycle:
        'Folder cycle {{cycle}}: {{from}} imports {{to}}, which leads back to {{from}}. ' +
        'Move what both need down a floor, or list the cycle with its reason in the exceptions of ' +
        'project/folder-cycles (eslint.config.js).',
    },
    schema: [
      {
        type: 'object',
        properties: {
          exceptions: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                rooms: { type: 'array', items: { type: 'string' }, minItems: 2 },
                reason: { type: 'string', minLength: 1 },
              },
              required: ['rooms', 'reason'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const file = path.resolve(context.filename);
    const root = context.cwd;
    const exceptions = context.options[0]?.exceptions ?? [];
    return {
      Program(program) {
        const from = roomOf(root, file);
        if (!from) return;
        const graph = importGraph(root);
        const cycle = roomCycles(root, graph).get(from);
        // A cycle inside an exception's rooms is allowed.
        if (!cycle || exceptions.some((e) => cycle.every((room) => e.rooms.includes(room)))) return;
        const inCycle = (target) => target && target !== from && cycle.includes(target);
        const files = new Set(graph.edges.keys());
        const data = (to) => ({ cycle: cycle.join(' ↔ '), from, to });
        let reported = false;
        for (const node of program.body) {
          const source = node.source?.value;
          if (typeof source !== 'string') continue;
          const to = resolveIn(files, file, source);
          const target = to && roomOf(root, to);
          if (inCycle(target)) {
            context.report({ node, messageId: 'cycle', data: data(target) });
            reported = true;
          }
        }
        // Closed by an import() inside a function: the file itself is reported.
        const dynamic = (graph.edges.get(file) ?? []).map(({ to }) => roomOf(root, to)).find(inCycle);
        if (!reported && dynamic) context.report({ node: program, messageId: 'cycle', data: data(dynamic) });
      },
    };
  },
};
