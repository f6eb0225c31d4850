import { expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { eventsOfMutation } from '../../src/outbound/mutation-events';

const validate = new Ajv({ validateFormats: false }).compile(
  JSON.parse(readFileSync(path.join(__dirname, '../../docs/events.schema.json'), 'utf8')) as object,
);
const delivered = (type: string, data: unknown) => ({
  id: '00000000-0000-4000-8000-000000000000',
  type,
  occurredAt: '2026-11-26T20:00:00Z',
  data,
});

/** A rollback through any door is announced to event subscribers, in the documented payloads. */
describe('events of a rollback', () => {
  test("an app's: app.state_changed, rolled back", () => {
    const events = eventsOfMutation({
      operation: 'rollbackApp',
      input: { appId: 7, revision: 1 },
      result: { number: 4 },
      outcome: 'ok',
      message: null,
    });
    expect(events).toEqual([{ type: 'app.state_changed', data: { appId: 7, name: null, state: 'rolled back' } }]);
    expect(validate(delivered(events[0].type, events[0].data)) ? [] : validate.errors).toEqual([]);
  });

  test("a deployment's: deployment.rolled_back, naming the deployment it is after the rollback", () => {
    const events = eventsOfMutation({
      operation: 'rollbackDeployment',
      input: { targetId: 2, deploymentId: 5, revision: 1 },
      result: { number: 3, deploymentId: 9 },
      outcome: 'ok',
      message: null,
    });
    expect(events).toEqual([{ type: 'deployment.rolled_back', data: { targetId: 2, id: 9 } }]);
    expect(validate(delivered(events[0].type, events[0].data)) ? [] : validate.errors).toEqual([]);
  });

  test('a refused one announces nothing', () => {
    expect(
      eventsOfMutation({ operation: 'rollbackApp', input: { appId: 7, revision: 99 }, result: null, outcome: 'NOT_FOUND', message: 'x' }),
    ).toEqual([]);
  });
});
