import { ValidationError } from '../errors';

/** Each after what it needs (names outside `names` ignored), ties in the given order; a cycle is a 422 naming it. */
export function dependencyOrder(names: string[], dependsOn: (name: string) => string[], field = 'links'): string[] {
  const known = new Set(names);
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    const seen = state.get(name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const cycle = [...path.slice(path.indexOf(name)), name];
      throw new ValidationError(`services depend on each other in a cycle (${cycle.join(' -> ')}) and cannot be started`, [field]);
    }
    state.set(name, 'visiting');
    for (const dep of dependsOn(name)) if (known.has(dep) && dep !== name) visit(dep, [...path, name]);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of names) visit(name, []);
  return order;
}
