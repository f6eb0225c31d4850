import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeGitRepo, pmx } from '../helpers/git';

/**
 * A call refused for its scope did nothing, so it announces nothing: a read token's reload of a
 * template repo is no template_repo.reload_failed for the subscribers (the audit log still has
 * the refusal). A reload that really fails, after it, is the one event there is.
 */
describe('a refused change makes no domain event', () => {
  let t: TestApp;
  let dir: string | undefined;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("a read token's reload of a template repo is refused and announced to no one", async () => {
    dir = makeGitRepo({ 'a.pmx': pmx('A') });
    const repo = await t.request<{ id: number }>('POST', '/template_repos', { body: { name: dir } });
    expect(repo.status).toBe(200);
    const issued = await t.graphql<{ createApiToken: { token: string } }>(
      'mutation { createApiToken(input: { name: "reader", scopes: [read] }) { ... on IssuedApiToken { token } } }',
    );
    const token = issued.body.data.createApiToken.token;

    const message = 'this token may not use Mutation.reloadTemplateRepo';
    const rest = await t.request('POST', `/template_repos/${repo.body.id}`, { token });
    expect({ status: rest.status, body: rest.body }).toEqual({ status: 403, body: { code: 403, message, fields: '' } });
    const gql = await t.request('POST', '/graphql', {
      token,
      body: { query: `mutation { reloadTemplateRepo(input: { id: ${repo.body.id} }) { __typename } }` },
    });
    expect({ status: gql.status, body: gql.body }).toEqual({
      status: 403,
      body: {
        data: null,
        errors: [
          {
            message,
            locations: [{ line: 1, column: 12 }],
            path: ['reloadTemplateRepo'],
            extensions: { code: 'FORBIDDEN', status: 403, fields: [] },
          },
        ],
      },
    });

    // Its directory gone, the admin's reload really fails: that one is announced.
    rmSync(dir, { recursive: true, force: true });
    const failed = await t.request<{ message: string }>('POST', `/template_repos/${repo.body.id}`);
    expect(failed.status).toBe(502);

    // An event is stored in the request that made it, before the answer: the table is complete now.
    const events = await t.app.orm.em
      .getConnection()
      .execute<{ type: string; payload: unknown }[]>('select type, payload from domain_events order by occurred_at, id');
    expect(events).toEqual([
      { type: 'template_repo.reload_failed', payload: { templateRepoId: repo.body.id, error: failed.body.message } },
    ]);
  });
});
