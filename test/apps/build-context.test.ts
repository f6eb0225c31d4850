import { contextLabel, gitContext, isRemoteContext } from '../../src/apps/build-context';

describe('compose build contexts: docker’s git URL syntax', () => {
  test.each([
    [
      'https://github.com/docker/awesome-compose.git#master:flask/app',
      { url: 'https://github.com/docker/awesome-compose.git', ref: 'master', subdir: 'flask/app' },
    ],
    ['https://host/repo.git', { url: 'https://host/repo.git', ref: '', subdir: '' }],
    ['https://host/repo.git#v1.2', { url: 'https://host/repo.git', ref: 'v1.2', subdir: '' }],
    ['https://host/repo.git#:docs', { url: 'https://host/repo.git', ref: '', subdir: 'docs' }],
    ['git://host/repo#main', { url: 'git://host/repo', ref: 'main', subdir: '' }],
    ['git@github.com:owner/repo.git#main:app', { url: 'git@github.com:owner/repo.git', ref: 'main', subdir: 'app' }],
    ['github.com/owner/repo#dev', { url: 'https://github.com/owner/repo', ref: 'dev', subdir: '' }],
    ['ssh://git@host/repo.git', { url: 'ssh://git@host/repo.git', ref: '', subdir: '' }],
    ['file:///srv/repos/ctx#abc1234:sub/dir', { url: 'file:///srv/repos/ctx', ref: 'abc1234', subdir: 'sub/dir' }],
  ])('%s is a git context', (context, expected) => {
    expect(gitContext(context)).toEqual(expected);
    expect(isRemoteContext(context)).toBe(true);
  });

  test.each(['./web', '.', 'web', 'https://host/context.tar.gz', 'http://host/Dockerfile'])('%s is not a git context', (context) => {
    expect(gitContext(context)).toBeNull();
  });

  test('URLs that are not git repositories are still remote (refused), directories are not', () => {
    expect(isRemoteContext('https://host/context.tar.gz')).toBe(true);
    expect(isRemoteContext('./web')).toBe(false);
    expect(isRemoteContext('web')).toBe(false);
  });

  test('a context as shown has no credentials', () => {
    expect(contextLabel('https://user:token@host/repo.git#main')).toBe('https://host/repo.git#main');
  });
});
