import { expect, jest } from '@jest/globals';
import { createContext } from '../../src/context';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * A request's entity manager is forked on first use: a template read borrows pooled connections
 * and makes none, and every service of one request that needs one shares the same fork (one
 * identity map, one flush).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('reading templates makes no fork; the services of one request share the one fork they make', async () => {
  const [{ id }] = await t.app.orm.em.getConnection().execute<{ id: number }[]>(`
    insert into templates (name, description, keywords, type, documentation, authors, source, image_count, image_text)
    values ('forkless', null, null, 'Default', null, '[]', null, 1, '') returning id`);
  await t.app.orm.em
    .getConnection()
    .execute(`insert into template_images (template_id, position, name, source) values (${id}, 0, 'web', 'example/web:1')`);
  const identity = { tokenId: null, username: 'admin', email: null, scopes: new Set(['read'] as const) };
  const fork = jest.spyOn(t.app.orm.em, 'fork');
  try {
    const context = createContext(identity, t.app.deps);
    const view = await context.services.templates.getView(id);
    expect({ name: view.name, images: view.images.map((image) => image.source) }).toEqual({ name: 'forkless', images: ['example/web:1'] });
    expect((await context.services.templates.listViews()).map((v) => v.name)).toEqual(['forkless']);
    // The count every `templates` list's cost check reads.
    expect(await context.services.templates.count()).toBe(1);
    expect(fork).toHaveBeenCalledTimes(0);

    // A service that needs the manager makes the fork; the next one gets the same (one identity map).
    const template = await context.services.templates.get(id);
    expect(template.name).toBe('forkless');
    expect(await context.services.tokens.count()).toBe(0);
    expect(await context.services.templates.get(id)).toBe(template);
    expect(fork).toHaveBeenCalledTimes(1);
  } finally {
    fork.mockRestore();
  }
});
