// Relay operations of the relay-runtime test, compiled by relay-compiler into ../__generated__
// (`npx relay-compiler --config test/graphql/relay/relay.config.json`); a test checks they are fresh.
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
        target { id name }
        status { services { orchestratorId actualState } }
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
        target { id name }
        status { services { orchestratorId actualState } }
      }
    }
  }
`;
