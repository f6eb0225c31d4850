import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { Scope } from '../gql/graphql';
import { useScope } from '../session';
import { Alert, failureOf, RequestError, ScopedButton } from '../ui';

const TokensQuery = graphql(`
  query ConsoleTokens {
    apiTokens {
      id
      databaseId
      name
      username
      scopes
      createdAt
      revokedAt
    }
  }
`);

const IssueToken = graphql(`
  mutation ConsoleIssueToken($input: CreateApiTokenInput!) {
    createApiToken(input: $input) {
      __typename
      ... on IssuedApiToken {
        token
        apiToken {
          id
          databaseId
          name
          username
          scopes
          createdAt
          revokedAt
        }
      }
      ... on Error {
        message
      }
    }
  }
`);

const RevokeToken = graphql(`
  mutation ConsoleRevokeToken($id: Int!) {
    revokeApiToken(input: { id: $id }) {
      __typename
      ... on ApiToken {
        id
        revokedAt
      }
      ... on Error {
        message
      }
    }
  }
`);

const SCOPES: Scope[] = ['read', 'write', 'deploy', 'admin'];

export function TokensPage() {
  const admin = useScope('admin');
  const [{ data, error }] = useQuery({ query: TokensQuery, pause: !admin.allowed });
  const [, issue] = useMutation(IssueToken);
  const [, revoke] = useMutation(RevokeToken);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('read');
  const [issued, setIssued] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setCopied(false);
    const result = await issue({ input: { name, scopes: [scope] } });
    const failed = failureOf(result, 'createApiToken');
    if (failed) return setFailure(failed);
    if (result.data?.createApiToken.__typename === 'IssuedApiToken') {
      setIssued(result.data.createApiToken.token);
      setName('');
    }
  };

  const doRevoke = async (id: number) => {
    const result = await revoke({ id });
    setFailure(failureOf(result, 'revokeApiToken'));
  };

  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">API tokens</h1>
      {!admin.allowed && <p className="reason">{admin.reason}</p>}
      <form onSubmit={(e) => void submit(e)} className="card" aria-labelledby="issue-title">
        <h2 id="issue-title">Issue a token</h2>
        <label htmlFor="token-name">Name</label>
        <input id="token-name" value={name} onChange={(e) => setName(e.target.value)} required disabled={!admin.allowed} />
        <label htmlFor="token-scope">Scope (each includes the ones before it)</label>
        <select id="token-scope" value={scope} onChange={(e) => setScope(e.target.value as Scope)} disabled={!admin.allowed}>
          {SCOPES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <ScopedButton scope="admin" type="submit">
          Issue token
        </ScopedButton>
      </form>
      {issued && (
        <div className="card issued" role="status">
          <p>The new token, shown this once:</p>
          <code className="secret" data-testid="issued-token">
            {issued}
          </code>{' '}
          <button
            type="button"
            onClick={() =>
              void navigator.clipboard?.writeText(issued).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      <Alert message={failure} />
      <RequestError error={error} />
      {data && (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">User</th>
              <th scope="col">Scopes</th>
              <th scope="col">Issued</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {data.apiTokens.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td>{token.username}</td>
                <td>{token.scopes.join(', ')}</td>
                <td>{new Date(token.createdAt).toLocaleString()}</td>
                <td>
                  {token.revokedAt ? (
                    `revoked ${new Date(token.revokedAt).toLocaleString()}`
                  ) : (
                    <ScopedButton scope="admin" className="danger" onClick={() => void doRevoke(token.databaseId)}>
                      Revoke {token.name}
                    </ScopedButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
