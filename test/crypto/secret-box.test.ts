import { expect } from '@jest/globals';
import { SecretBox } from '../../src/crypto/secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('a key for the tests');

  test('seals with a fresh IV each time and opens what it sealed', () => {
    const a = box.seal('agent token');
    const b = box.seal('agent token');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[^.]+\.[^.]+\.[^.]+$/);
    expect(box.open(a)).toBe('agent token');
    expect(box.open(b)).toBe('agent token');
  });

  test('a sealed text that was changed, or sealed under another key, does not open, even after the original was opened', () => {
    const sealed = box.seal('secret');
    expect(box.open(sealed)).toBe('secret');
    const [version, iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64');
    flipped[0] ^= 1;
    expect(() => box.open([version, iv, tag, flipped.toString('base64')].join('.'))).toThrow();
    expect(() => new SecretBox('another key').open(sealed)).toThrow();
    expect(() => box.open('not sealed')).toThrow('not a sealed secret');
  });

  test('opened texts are kept within a bound and every one still opens past it', () => {
    const sealed = Array.from({ length: 1500 }, (_, i) => box.seal(`secret ${i}`));
    expect(sealed.map((text) => box.open(text))).toEqual(sealed.map((_, i) => `secret ${i}`));
    // Again, in the other order: the oldest were let go and are opened again.
    expect([...sealed].reverse().map((text) => box.open(text))).toEqual(sealed.map((_, i) => `secret ${i}`).reverse());
    expect((box as unknown as { opened: Map<string, string> }).opened.size).toBeLessThanOrEqual(1024);
  });
});
