import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useSubscription, type CombinedError } from 'urql';
import { graphql } from '../gql';
import type { ConsoleTargetQuery, OverrideImageInput } from '../gql/graphql';
import { History } from './History';
import { Alert, failureOf, RequestError, ScopedButton } from '../ui';

const TargetQuery = graphql(`
  query ConsoleTarget($id: Int!) {
    deploymentTarget(id: $id) {
      id
      databaseId
      name
      endpointUrl
      metadataError
      metadata {
        agentVersion
        adapterType
        adapterVersion
      }
      deployments {
        id
        databaseId
        name
        template
        status {
          services {
            orchestratorId
            actualState
            reason
          }
        }
      }
    }
    templates {
      id
      databaseId
      name
      images {
        name
        source
        environment {
          variable
          value
        }
      }
    }
  }
`);

// Each event carries the deployment with its status: graphcache updates the row in place.
const StatusSubscription = graphql(`
  subscription ConsoleDeploymentStatus($id: Int!, $targetId: Int!) {
    deploymentStatusChanged(id: $id, targetId: $targetId) {
      error
      deployment {
        id
        status {
          services {
            orchestratorId
            actualState
            reason
          }
        }
      }
    }
  }
`);

const Deploy = graphql(`
  mutation ConsoleDeploy($input: CreateDeploymentInput!) {
    createDeployment(input: $input) {
      __typename
      ... on Deployment {
        id
      }
      ... on Error {
        message
      }
    }
  }
`);

const UpdateTarget = graphql(`
  mutation ConsoleUpdateTarget($input: UpdateDeploymentTargetInput!) {
    updateDeploymentTarget(input: $input) {
      __typename
      ... on DeploymentTarget {
        id
        name
        endpointUrl
        metadataError
        metadata {
          agentVersion
          adapterType
          adapterVersion
        }
      }
      ... on Error {
        message
      }
    }
  }
`);

const Redeploy = graphql(`
  mutation ConsoleRedeploy($id: Int!, $targetId: Int!) {
    redeployDeployment(input: { id: $id, targetId: $targetId }) {
      __typename
      ... on Deployment {
        id
      }
      ... on Error {
        message
      }
    }
  }
`);

const DeleteDeployment = graphql(`
  mutation ConsoleDeleteDeployment($id: Int!, $targetId: Int!) {
    deleteDeployment(input: { id: $id, targetId: $targetId }) {
      __typename
      ... on Error {
        message
      }
    }
  }
`);

/** One target: its agent, its deployments with each service's live state, and deploying a template to it. */
export function TargetPage({ id }: { id: number }) {
  const [{ data, error }, refetch] = useQuery({ query: TargetQuery, variables: { id } });
  const [failure, setFailure] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [historyOf, setHistoryOf] = useState<number | null>(null);
  const target = data?.deploymentTarget;
  const reload = () => refetch({ requestPolicy: 'network-only' });

  return (
    <section aria-labelledby="target-title">
      <p>
        <a href="#/targets">← Targets</a>
      </p>
      {/* The deployments need the agent: when it is down, that field alone fails, and the rest shows. */}
      {!target && <RequestError error={error} />}
      {target && (
        <>
          <h1 id="target-title">{target.name}</h1>
          <p className="muted">{target.endpointUrl}</p>
          {target.metadata ? (
            <p>
              Agent {target.metadata.agentVersion}, adapter {target.metadata.adapterType} {target.metadata.adapterVersion}
            </p>
          ) : (
            <p className="error">Agent unreachable: {target.metadataError ?? 'no answer yet'}</p>
          )}
          {!editing ? (
            <ScopedButton scope="deploy" onClick={() => setEditing(true)}>
              Edit target
            </ScopedButton>
          ) : (
            <EditTarget
              key={target.id}
              targetId={target.databaseId}
              name={target.name}
              onDone={(saved) => {
                setEditing(false);
                if (saved) reload();
              }}
            />
          )}
          <h2>Deployments</h2>
          <Alert message={failure} />
          {target.deployments === null || target.deployments === undefined ? (
            <Alert message={`The agent cannot list its deployments now: ${error?.graphQLErrors[0]?.message ?? 'no answer'}`} />
          ) : target.deployments.length === 0 ? (
            <p>No deployments yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Deployment</th>
                  <th scope="col">Services</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {target.deployments.map((d) => (
                  <DeploymentRow
                    key={d.id}
                    targetId={target.databaseId}
                    deployment={d}
                    onChange={reload}
                    onError={setFailure}
                    onHistory={() => setHistoryOf(d.databaseId)}
                  />
                ))}
              </tbody>
            </table>
          )}
          {historyOf !== null && (
            <History
              key={historyOf}
              owner={{
                targetId: target.databaseId,
                deploymentId: historyOf,
                name: target.deployments?.find((d) => d.databaseId === historyOf)?.name ?? `deployment ${historyOf}`,
              }}
              onRolledBack={(deploymentId) => {
                reload();
                if (deploymentId !== null) setHistoryOf(deploymentId);
              }}
            />
          )}
          <DeployForm targetId={target.databaseId} templates={data.templates} onDeployed={reload} onError={setFailure} />
        </>
      )}
    </section>
  );
}

/**
 * Renames the target or replaces its token in place (the agent rotated its password, or moved):
 * the new token is checked against the agent, and a refused one changes nothing.
 */
function EditTarget(props: { targetId: number; name: string; onDone: (saved: boolean) => void }) {
  const [name, setName] = useState(props.name);
  const [token, setToken] = useState('');
  const [saving, update] = useMutation(UpdateTarget);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const authBlob = token.trim();
    const result = await update({ input: { id: props.targetId, name, ...(authBlob ? { authBlob } : {}) } });
    const failed = failureOf(result, 'updateDeploymentTarget');
    setFailure(failed);
    if (!failed) props.onDone(true);
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="card" aria-labelledby="edit-target-title">
      <h2 id="edit-target-title">Edit {props.name}</h2>
      <label htmlFor="edit-target-name">Target name</label>
      <input id="edit-target-name" value={name} onChange={(e) => setName(e.target.value)} required />
      <label htmlFor="edit-target-token">New agent token (blank keeps the current one)</label>
      <textarea id="edit-target-token" rows={3} value={token} onChange={(e) => setToken(e.target.value)} spellCheck={false} />
      <Alert message={failure} />
      <ScopedButton scope="deploy" type="submit" disabled={saving.fetching}>
        {saving.fetching ? 'Checking with the agent…' : 'Save target'}
      </ScopedButton>{' '}
      <button type="button" onClick={() => props.onDone(false)}>
        Cancel
      </button>
    </form>
  );
}

type TargetDeployment = NonNullable<NonNullable<ConsoleTargetQuery['deploymentTarget']>['deployments']>[number];

function DeploymentRow(props: {
  targetId: number;
  deployment: TargetDeployment;
  onChange: () => void;
  onError: (message: string | null) => void;
  onHistory: () => void;
}) {
  const { deployment, targetId } = props;
  const [{ data: live }] = useSubscription({ query: StatusSubscription, variables: { id: deployment.databaseId, targetId } });
  const [redeploying, redeploy] = useMutation(Redeploy);
  const [, remove] = useMutation(DeleteDeployment);
  const [confirming, setConfirming] = useState(false);
  const name = deployment.name ?? `deployment ${deployment.databaseId}`;

  const act = async <D,>(run: () => Promise<{ error?: CombinedError; data?: D }>, field: keyof D) => {
    const failed = failureOf(await run(), field);
    props.onError(failed);
    if (!failed) props.onChange();
  };

  return (
    <tr data-deployment={name}>
      <td>{name}</td>
      <td>
        {live?.deploymentStatusChanged.error && <span className="error">{live.deploymentStatusChanged.error} </span>}
        <ul className="inline">
          {(deployment.status?.services ?? []).map((s) => (
            <li key={s.orchestratorId}>
              <code>{s.orchestratorId}</code> <span className={`state state-${s.actualState}`}>{s.actualState}</span>
              {s.reason && <span className="reason"> {s.reason}</span>}
            </li>
          ))}
        </ul>
      </td>
      <td>
        <ScopedButton
          scope="deploy"
          disabled={redeploying.fetching}
          onClick={() => void act(() => redeploy({ id: deployment.databaseId, targetId }), 'redeployDeployment')}
        >
          {redeploying.fetching ? 'Redeploying…' : `Redeploy ${name}`}
        </ScopedButton>{' '}
        <button type="button" onClick={props.onHistory}>
          History of {name}
        </button>{' '}
        {!confirming ? (
          <ScopedButton scope="deploy" className="danger" onClick={() => setConfirming(true)}>
            Delete {name}…
          </ScopedButton>
        ) : (
          <span role="group" aria-label={`Confirm deleting ${name}`}>
            <button
              type="button"
              className="danger"
              onClick={() => void act(() => remove({ id: deployment.databaseId, targetId }), 'deleteDeployment')}
            >
              Delete {name} and its containers
            </button>{' '}
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </span>
        )}
      </td>
    </tr>
  );
}

type DeployTemplate = ConsoleTargetQuery['templates'][number];

/** Deploys a template with per-image overrides: environment values and how many to run. */
function DeployForm(props: {
  targetId: number;
  templates: DeployTemplate[];
  onDeployed: () => void;
  onError: (message: string | null) => void;
}) {
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [overrides, setOverrides] = useState<Record<string, { count: string; environment: Record<string, string> }>>({});
  const [deploying, deploy] = useMutation(Deploy);
  const template = props.templates.find((t) => t.databaseId === templateId);

  const choose = (id: number) => {
    setTemplateId(id);
    const chosen = props.templates.find((t) => t.databaseId === id);
    setOverrides(
      Object.fromEntries(
        (chosen?.images ?? []).map((image) => [
          image.name,
          { count: '1', environment: Object.fromEntries(image.environment.map((e) => [e.variable, e.value])) },
        ]),
      ),
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!template) return;
    const images: OverrideImageInput[] = template.images.map((image) => {
      const o = overrides[image.name];
      return {
        name: image.name,
        deployment: { count: Math.max(1, Number(o.count) || 1) },
        environment: Object.entries(o.environment).map(([variable, value]) => ({ variable, value })),
      };
    });
    const result = await deploy({ input: { targetId: props.targetId, templateId: template.databaseId, override: { images } } });
    const failed = failureOf(result, 'createDeployment');
    props.onError(failed);
    if (!failed) props.onDeployed();
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="card" aria-labelledby="deploy-title">
      <h2 id="deploy-title">Deploy a template</h2>
      <label htmlFor="deploy-template">Template</label>
      <select id="deploy-template" value={templateId ?? ''} onChange={(e) => choose(Number(e.target.value))} required>
        <option value="" disabled>
          Choose a template…
        </option>
        {props.templates.map((t) => (
          <option key={t.databaseId} value={t.databaseId}>
            {t.name}
          </option>
        ))}
      </select>
      {template?.images.map((image) => (
        <fieldset key={image.name}>
          <legend>
            {image.name} <code>{image.source}</code>
          </legend>
          <label htmlFor={`count-${image.name}`}>How many of {image.name}</label>
          <input
            id={`count-${image.name}`}
            type="number"
            min={1}
            value={overrides[image.name]?.count ?? '1'}
            onChange={(e) => setOverrides({ ...overrides, [image.name]: { ...overrides[image.name], count: e.target.value } })}
          />
          {Object.entries(overrides[image.name]?.environment ?? {}).map(([variable, value]) => (
            <div key={variable}>
              <label htmlFor={`env-${image.name}-${variable}`}>
                {image.name}: {variable}
              </label>
              <input
                id={`env-${image.name}-${variable}`}
                value={value}
                onChange={(e) =>
                  setOverrides({
                    ...overrides,
                    [image.name]: {
                      ...overrides[image.name],
                      environment: { ...overrides[image.name].environment, [variable]: e.target.value },
                    },
                  })
                }
              />
            </div>
          ))}
        </fieldset>
      ))}
      <ScopedButton scope="deploy" type="submit" disabled={!template || deploying.fetching}>
        {deploying.fetching ? 'Deploying…' : 'Deploy'}
      </ScopedButton>
    </form>
  );
}
