import { expect } from '@jest/globals';
import { revisionDiff } from '../../src/history/revision-diff';
import type { RevisionDefinition } from '../../src/history/revision-definition';
import { RevisionStore } from '../../src/history/revision-store';
import { NotFoundError, ValidationError } from '../../src/errors';
import { bareImage } from '../../src/parts/image';
import { startTestApp, type TestApp } from '../helpers/app';

const author = { kind: 'token', id: '1', name: 'ci' };

const definition = (tag: string, password: string): RevisionDefinition => ({
  name: 'shop',
  images: [
    {
      ...bareImage('web', `shop/web:${tag}`),
      environment: [
        { variable: 'MODE', value: tag },
        { variable: 'DB_PASSWORD', value: password },
      ],
    },
  ],
});

/** The store on the real database: numbering, outcomes, the current one and retention (REVISION_RETENTION). */
describe('revisions: numbering, retention and what a diff shows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  test('more revisions opened at once than the pool has connections all open (each numbers itself in its own transaction)', async () => {
    // Ten at once held the pool's ten connections in BEGIN, each waiting for an eleventh until the
    // pool's 60 s timeout: fifty deploys at once got 503s.
    const owners = Array.from({ length: 12 }, (_, i) => ({ targetId: 9, deploymentId: 900 + i }));
    const opened = await Promise.all(
      owners.map((owner) =>
        new RevisionStore(t.app.orm.em.fork(), 3).open(owner, { action: 'create', definition: definition('v1', 'x'), author }),
      ),
    );
    expect(opened.map((r) => [r.deploymentId, r.number])).toEqual(owners.map((o) => [o.deploymentId, 1]));
  }, 120_000);

  test('beyond the retention the oldest go, but never the current one nor the one a one-step rollback goes to', async () => {
    const store = new RevisionStore(t.app.orm.em.fork(), 3);
    const owner = { targetId: 7, deploymentId: 70 };
    const make = async (outcome: 'succeeded' | 'failed') => {
      const opened = await store.open(owner, { action: 'redeploy', definition: definition('v1', 'x'), author });
      return store.settle(opened, { outcome, error: outcome === 'failed' ? 'it broke' : null });
    };
    await make('succeeded'); // 1
    await make('succeeded'); // 2: the last good one before the failures
    for (let i = 0; i < 4; i += 1) await make('failed'); // 3..6
    const kept = await store.list(owner, { limit: 10 });
    expect(kept.map((r) => [r.number, r.outcome, r.current])).toEqual([
      [6, 'failed', false],
      [5, 'failed', false],
      [4, 'failed', false],
      [2, 'succeeded', true],
      [1, 'succeeded', false],
    ]);
    await expect(store.get(owner, 3)).rejects.toEqual(
      new ValidationError(`revision 3 of deployment 70 of target 7 was pruned (REVISION_RETENTION keeps the newest 3)`, ['revision']),
    );
    await expect(store.get(owner, 7)).rejects.toEqual(new NotFoundError('revision 7 of deployment 70 of target 7 not found', ['revision']));
    // Another owner's numbers are its own.
    await expect(store.get({ targetId: 7, deploymentId: 71 }, 2)).rejects.toBeInstanceOf(NotFoundError);
    await make('succeeded'); // 7: now current; 2 the good one before it, 1 goes
    expect((await store.list(owner, { limit: 10 })).map((r) => r.number)).toEqual([7, 6, 5, 2]);
  });

  test('a secret value never shows in a diff, structured or unified: only that it changed', () => {
    const diff = revisionDiff(
      { number: 1, definition: definition('v1', 'hunter2'), images: [] },
      { number: 2, definition: definition('v2', 'correct-horse'), images: [] },
    );
    expect(diff.images).toEqual([
      {
        image: 'web',
        change: 'changed',
        fields: [
          { field: 'source', old: 'shop/web:v1', new: 'shop/web:v2', secret: false },
          { field: 'environment.MODE', old: 'v1', new: 'v2', secret: false },
          { field: 'environment.DB_PASSWORD', old: null, new: null, secret: true },
        ],
      },
    ]);
    expect(diff.unified).not.toMatch(/hunter2|correct-horse/);
    expect(diff.unified).toContain('-    source: shop/web:v1\n+    source: shop/web:v2\n');
    expect(diff.unified).toContain('        value: "***"');
  });
});
