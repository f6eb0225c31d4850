// Relay operations of the relay-runtime test (client-caches.test.ts), compiled by relay-compiler into
// ../__generated__ by `npm run schema:print`; test/schema.test.ts checks the artifacts are fresh.
import { graphql } from 'relay-runtime';

export const targetsQuery = graphql`
  query deploymentsTargetsQuery {
    deploymentTargets {
      id
      name
      deployments {
        id
        databaseId
        name
        target {
          id
          name
        }
        status {
          services {
            orchestratorId
            actualState
          }
        }
      }
    }
  }
`;

export const nodeQuery = graphql`
  query deploymentsNodeQuery($id: ID!) {
    node(id: $id) {
      id
      ... on Deployment {
        databaseId
        name
        target {
          id
          name
        }
        status {
          services {
            orchestratorId
            actualState
          }
        }
      }
    }
  }
`;
