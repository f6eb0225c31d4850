import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { Alert, failureOf, RequestError, ScopedButton } from '../ui';

const TargetsQuery = graphql(`
  query ConsoleTargets {
    deploymentTargets {
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
    }
  }
`);

const AddTarget = graphql(`
  mutation ConsoleAddTarget($input: CreateDeploymentTargetInput!) {
    createDeploymentTarget(input: $input) {
      __typename
      ... on DeploymentTarget {
        id
        databaseId
      }
      ... on Error {
        message
      }
    }
  }
`);

export function TargetsPage() {
  const [{ data, error }] = useQuery({ query: TargetsQuery });
  const [adding, add] = useMutation(AddTarget);
  const [name, setName] = useState('');
  const [token, setToken] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const result = await add({ input: { name, authBlob: token.trim() } });
    const failed = failureOf(result, 'createDeploymentTarget');
    if (failed) return setFailure(failed);
    setName('');
    setToken('');
  };

  return (
    <section aria-labelledby="targets-title">
      <h1 id="targets-title">Deployment targets</h1>
      <RequestError error={error} />
      {data && data.deploymentTargets.length === 0 && <p>No targets yet.</p>}
      {data && data.deploymentTargets.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Target</th>
              <th scope="col">Agent</th>
              <th scope="col">Adapter</th>
            </tr>
          </thead>
          <tbody>
            {data.deploymentTargets.map((target) => (
              <tr key={target.id}>
                <td>
                  <a href={`#/targets/${target.databaseId}`}>{target.name}</a>
                  <div className="muted">{target.endpointUrl}</div>
                </td>
                {target.metadata ? (
                  <>
                    <td>{target.metadata.agentVersion}</td>
                    <td>
                      {target.metadata.adapterType} {target.metadata.adapterVersion}
                    </td>
                  </>
                ) : (
                  <td colSpan={2} className="error">
                    Agent unreachable: {target.metadataError ?? 'no answer yet'}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={(e) => void submit(e)} className="card" aria-labelledby="add-target-title">
        <h2 id="add-target-title">Add a target</h2>
        <label htmlFor="target-name">Name</label>
        <input id="target-name" value={name} onChange={(e) => setName(e.target.value)} required />
        <label htmlFor="target-token">Agent token (what the agent printed at its first start)</label>
        <textarea id="target-token" rows={3} value={token} onChange={(e) => setToken(e.target.value)} required spellCheck={false} />
        <Alert message={failure} />
        <ScopedButton scope="deploy" type="submit" disabled={adding.fetching}>
          Add target
        </ScopedButton>
      </form>
    </section>
  );
}
