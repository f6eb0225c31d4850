import { sanitizeName, uniqueName } from '../../src/parts/names';

describe('sanitizeName', () => {
  test('every character outside 0-9 A-Z a-z . _ - becomes _', () => {
    expect(sanitizeName('foo/bar')).toBe('foo_bar');
    expect(sanitizeName('My App: v1.2-beta_3')).toBe('My_App__v1.2-beta_3');
    expect(sanitizeName('back\\slash é')).toBe('back_slash__');
    expect(sanitizeName('plain-name_1.0')).toBe('plain-name_1.0');
  });
});

describe('uniqueName', () => {
  test('a free name is kept', () => {
    expect(uniqueName('foo_bar', new Set())).toBe('foo_bar');
  });

  test('a taken name gets the first free _n suffix', () => {
    expect(uniqueName('foo_bar', ['foo_bar'])).toBe('foo_bar_1');
    expect(uniqueName('foo_bar', new Set(['foo_bar', 'foo_bar_1', 'foo_bar_3']))).toBe('foo_bar_2');
  });

  test('exact matches only: a name that merely starts with the candidate does not count', () => {
    expect(uniqueName('wordpress', ['wordpress_blog', 'wordpress2'])).toBe('wordpress');
    expect(uniqueName('wordpress', ['Wordpress'])).toBe('wordpress');
  });
});
