// The relay-runtime test of nodes(ids:) over every Node type (node-types.test.ts).
import { graphql } from 'relay-runtime';

export const nodesQuery = graphql`
  query nodesEveryTypeQuery($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      id
      ... on App {
        databaseId
      }
      ... on Registry {
        databaseId
      }
      ... on TemplateRepo {
        databaseId
      }
      ... on DeploymentTarget {
        databaseId
      }
      ... on Deployment {
        databaseId
      }
      ... on Service {
        databaseId
      }
      ... on Category {
        databaseId
      }
      ... on Template {
        databaseId
      }
      ... on ApiToken {
        databaseId
      }
      ... on DeployHook {
        databaseId
      }
      ... on EventSubscription {
        databaseId
      }
    }
  }
`;
