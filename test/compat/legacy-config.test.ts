import { ConfigError, parseConfig } from '../../src/config';

describe('the legacy UI listener is opt-in', () => {
  test('off unless LEGACY_UI_PORT is set (an empty value is unset); host and scope default to loopback and read', () => {
    expect(parseConfig({}).legacyUi).toBeUndefined();
    expect(parseConfig({ LEGACY_UI_PORT: '' }).legacyUi).toBeUndefined();
    expect(parseConfig({ LEGACY_UI_PORT: '3000' }).legacyUi).toEqual({ port: 3000, host: '127.0.0.1', scope: 'read' });
    expect(parseConfig({ LEGACY_UI_PORT: '3000', LEGACY_UI_HOST: '10.0.0.5', LEGACY_UI_SCOPE: 'deploy' }).legacyUi).toEqual({
      port: 3000,
      host: '10.0.0.5',
      scope: 'deploy',
    });
  });

  test('the admin scope cannot be given to a listener without tokens', () => {
    expect(() => parseConfig({ LEGACY_UI_PORT: '3000', LEGACY_UI_SCOPE: 'admin' })).toThrow(ConfigError);
    expect(() => parseConfig({ LEGACY_UI_PORT: 'x' })).toThrow(ConfigError);
  });
});
