// The app's modules import each other without loops: shell, blocks, state and data depend on
// each other in one direction, and the islands registry imports no component.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(__dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Relative imports of a module, type-only ones included (they still tie the modules). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm)].map((m) => (m[1] as string | undefined) ?? m[2]);
  return specs.map((s) => resolve(file, s)).filter((f): f is string => f !== null && !f.endsWith('.css'));
}

function findLoop(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const loop = visit(next);
      if (loop) return loop;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const loop = visit(node);
    if (loop) return loop;
  }
  return null;
}

describe('module imports', () => {
  it('form no loop', () => {
    const graph = new Map(sources(src).map((f) => [f, importsOf(f)]));
    expect(graph.size).toBeGreaterThan(20);
    const loop = findLoop(graph);
    expect(loop === null ? null : loop.map((f) => path.relative(src, f))).toBeNull();
  });

  it('finds a loop when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(findLoop(graph)).toEqual(['a', 'b', 'c', 'a']);
  });
});
