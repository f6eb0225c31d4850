import { createHmac, randomUUID } from 'node:crypto';

/** Payloads and headers as the real senders send them (the fields their documentation shows, abridged). */

export function githubPush(secret: string, options: { delivery?: string; ref?: string; files?: string[]; event?: string } = {}) {
  const files = options.files ?? ['README.md'];
  const body = JSON.stringify({
    ref: options.ref ?? 'refs/heads/main',
    before: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
    after: '59b20b8d5c6ff8d09518454d4dd8b7a30f095ab5',
    repository: { id: 1296269, full_name: 'octocat/templates', clone_url: 'https://github.com/octocat/templates.git' },
    pusher: { name: 'octocat', email: 'octocat@github.com' },
    sender: { login: 'octocat', id: 1 },
    commits: [{ id: '59b20b8d5c6ff8d09518454d4dd8b7a30f095ab5', message: 'Update templates', added: [], removed: [], modified: files }],
    head_commit: { id: '59b20b8d5c6ff8d09518454d4dd8b7a30f095ab5', message: 'Update templates', modified: files },
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/044aadd',
      'x-github-event': options.event ?? 'push',
      'x-github-delivery': options.delivery ?? randomUUID(),
      'x-github-hook-id': '292430182',
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
  };
}

export function gitlabPush(token: string, options: { uuid?: string } = {}) {
  const body = JSON.stringify({
    object_kind: 'push',
    event_name: 'push',
    before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
    after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
    ref: 'refs/heads/main',
    user_username: 'jsmith',
    project: { id: 15, path_with_namespace: 'mike/diaspora', git_http_url: 'http://example.com/mike/diaspora.git' },
    commits: [{ id: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7', message: 'fixed readme', added: [], modified: ['README.md'], removed: [] }],
    total_commits_count: 1,
  });
  const uuid = options.uuid ?? randomUUID();
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitLab/17.5.0',
      'x-gitlab-event': 'Push Hook',
      'x-gitlab-token': token,
      'x-gitlab-event-uuid': uuid,
      'x-gitlab-webhook-uuid': '2e8e0b3a-0b3e-4bd5-a6c4-2b8d12a6a2f1',
      'idempotency-key': uuid,
    },
  };
}

export function genericCall(secret: string, payload: unknown, delivery?: string) {
  const body = payload === undefined ? '' : JSON.stringify(payload);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-platform-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
      ...(delivery ? { 'x-platform-delivery': delivery } : {}),
    },
  };
}
