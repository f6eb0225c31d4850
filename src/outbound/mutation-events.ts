import type { EventType } from './event-types';

export interface MutationOutcome {
  operation: string;
  input: Record<string, unknown>;
  result: unknown;
  /** ok, or the error's code. */
  outcome: string;
  message: string | null;
}

export interface StreamEvent {
  type: EventType;
  data: Record<string, unknown>;
}

const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** From the outcome the audit log records, so a change through any door is announced the same way. */
export function eventsOfMutation(m: MutationOutcome): StreamEvent[] {
  // A call refused for its scope did nothing: announcing it would let any token make the
  // service post to every subscriber (a read token's reload as a template_repo.reload_failed).
  if (m.outcome === 'FORBIDDEN') return [];
  const result = (m.result ?? {}) as Record<string, unknown>;
  const ok = m.outcome === 'ok';
  switch (m.operation) {
    case 'createApp':
    case 'rebuildApp':
    case 'redeployApp':
    case 'deleteApp': {
      if (!ok) return [];
      const state = { createApp: 'created', rebuildApp: 'rebuilt', redeployApp: 'redeployed', deleteApp: 'deleted' }[m.operation];
      return [{ type: 'app.state_changed', data: { appId: num(result.id) ?? num(m.input.id), name: result.name ?? null, state } }];
    }
    case 'createDeployment':
    case 'redeployDeployment': {
      const action = m.operation === 'createDeployment' ? 'create' : 'redeploy';
      const targetId = num(m.input.targetId) ?? num(result.targetId);
      if (!ok) {
        // A mistake of the caller (unknown target, bad input) is not a deployment that failed.
        if (m.outcome !== 'UPSTREAM_FAILED' && m.outcome !== 'UPSTREAM_TIMEOUT') return [];
        return [{ type: 'deployment.failed', data: { targetId, id: num(m.input.id), action, error: m.message } }];
      }
      const type = action === 'create' ? 'deployment.created' : 'deployment.redeployed';
      return [{ type, data: { targetId, id: num(result.id), name: result.name ?? null } }];
    }
    case 'rollbackApp':
      if (!ok) return [];
      return [{ type: 'app.state_changed', data: { appId: num(m.input.appId), name: null, state: 'rolled back' } }];
    case 'rollbackDeployment': {
      if (!ok) return [];
      // Through an agent of the original protocol the deployment is a new one: the revision says which.
      return [
        {
          type: 'deployment.rolled_back',
          data: { targetId: num(m.input.targetId), id: num(result.deploymentId) ?? num(m.input.deploymentId) },
        },
      ];
    }
    case 'reloadTemplateRepo':
      if (ok || m.outcome === 'NOT_FOUND') return [];
      return [{ type: 'template_repo.reload_failed', data: { templateRepoId: num(m.input.id), error: m.message } }];
    default:
      return [];
  }
}
