/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ConsoleApp($id: Int!) {\n    app(id: $id) {\n      id\n      databaseId\n      name\n      from\n      documentation\n      errors {\n        message\n      }\n      warnings {\n        message\n      }\n      services {\n        id\n        databaseId\n        name\n        from\n        activeState\n        subState\n        ports {\n          containerPort\n          hostPort\n          proto\n        }\n        errors {\n          message\n        }\n      }\n    }\n  }\n": typeof types.ConsoleAppDocument,
    "\n  subscription ConsoleServiceStates($appId: Int!) {\n    serviceStateChanged(appId: $appId) {\n      serviceId\n      service {\n        id\n        activeState\n        subState\n      }\n    }\n  }\n": typeof types.ConsoleServiceStatesDocument,
    "\n  query ConsoleAppJournal($appId: Int!, $cursor: String) {\n    appJournal(appId: $appId, cursor: $cursor, limit: 500) {\n      cursor\n      service\n      stream\n      message\n      timestamp\n    }\n  }\n": typeof types.ConsoleAppJournalDocument,
    "\n  mutation ConsoleDeleteApp($id: Int!) {\n    deleteApp(input: { id: $id }) {\n      __typename\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleDeleteAppDocument,
    "\n  query ConsoleApps {\n    apps {\n      id\n      databaseId\n      name\n      from\n      errors {\n        message\n      }\n      services {\n        id\n        databaseId\n        name\n        activeState\n        subState\n      }\n    }\n  }\n": typeof types.ConsoleAppsDocument,
    "\n  query ConsoleCatalog {\n    templateRepos {\n      id\n      databaseId\n      name\n      templateCount\n      updatedAt\n      loadErrors {\n        file\n        line\n        message\n      }\n    }\n    registries {\n      id\n      databaseId\n      name\n      endpointUrl\n      enabled\n      hasCredentials\n    }\n  }\n": typeof types.ConsoleCatalogDocument,
    "\n  mutation ConsoleAddRepo($name: String!) {\n    createTemplateRepo(input: { name: $name }) {\n      __typename\n      ... on TemplateRepo {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleAddRepoDocument,
    "\n  mutation ConsoleReloadRepo($id: Int!) {\n    reloadTemplateRepo(input: { id: $id }) {\n      __typename\n      ... on TemplateRepo {\n        id\n        templateCount\n        updatedAt\n        loadErrors {\n          file\n          line\n          message\n        }\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleReloadRepoDocument,
    "\n  mutation ConsoleAddRegistry($input: CreateRegistryInput!) {\n    createRegistry(input: $input) {\n      __typename\n      ... on Registry {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleAddRegistryDocument,
    "\n  mutation ConsoleUpdateRegistry($input: UpdateRegistryInput!) {\n    updateRegistry(input: $input) {\n      __typename\n      ... on Registry {\n        id\n        name\n        endpointUrl\n        enabled\n        hasCredentials\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleUpdateRegistryDocument,
    "\n  query ConsoleTarget($id: Int!) {\n    deploymentTarget(id: $id) {\n      id\n      databaseId\n      name\n      endpointUrl\n      metadataError\n      metadata {\n        agentVersion\n        adapterType\n        adapterVersion\n      }\n      deployments {\n        id\n        databaseId\n        name\n        template\n        status {\n          services {\n            orchestratorId\n            actualState\n          }\n        }\n      }\n    }\n    templates {\n      id\n      databaseId\n      name\n      images {\n        name\n        source\n        environment {\n          variable\n          value\n        }\n      }\n    }\n  }\n": typeof types.ConsoleTargetDocument,
    "\n  subscription ConsoleDeploymentStatus($id: Int!, $targetId: Int!) {\n    deploymentStatusChanged(id: $id, targetId: $targetId) {\n      error\n      deployment {\n        id\n        status {\n          services {\n            orchestratorId\n            actualState\n          }\n        }\n      }\n    }\n  }\n": typeof types.ConsoleDeploymentStatusDocument,
    "\n  mutation ConsoleDeploy($input: CreateDeploymentInput!) {\n    createDeployment(input: $input) {\n      __typename\n      ... on Deployment {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleDeployDocument,
    "\n  mutation ConsoleRedeploy($id: Int!, $targetId: Int!) {\n    redeployDeployment(input: { id: $id, targetId: $targetId }) {\n      __typename\n      ... on Deployment {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleRedeployDocument,
    "\n  mutation ConsoleDeleteDeployment($id: Int!, $targetId: Int!) {\n    deleteDeployment(input: { id: $id, targetId: $targetId }) {\n      __typename\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleDeleteDeploymentDocument,
    "\n  query ConsoleTargets {\n    deploymentTargets {\n      id\n      databaseId\n      name\n      endpointUrl\n      metadataError\n      metadata {\n        agentVersion\n        adapterType\n        adapterVersion\n      }\n    }\n  }\n": typeof types.ConsoleTargetsDocument,
    "\n  mutation ConsoleAddTarget($input: CreateDeploymentTargetInput!) {\n    createDeploymentTarget(input: $input) {\n      __typename\n      ... on DeploymentTarget {\n        id\n        databaseId\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleAddTargetDocument,
    "\n  query ConsoleSearch($q: String!) {\n    search(q: $q, limit: 30) {\n      items {\n        __typename\n        name\n        description\n        source\n        imageCount\n        images {\n          name\n          source\n        }\n        ... on Template {\n          id\n          databaseId\n          keywords\n        }\n        ... on RegistryImageTemplate {\n          registryId\n          registryName\n          starCount\n          isOfficial\n        }\n      }\n      errors {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleSearchDocument,
    "\n  mutation ConsoleCreateApp($input: CreateAppInput!) {\n    createApp(input: $input) {\n      __typename\n      ... on App {\n        id\n        databaseId\n        name\n      }\n      ... on Error {\n        code\n        message\n        fields\n      }\n    }\n  }\n": typeof types.ConsoleCreateAppDocument,
    "\n  query ConsoleTokens {\n    apiTokens {\n      id\n      databaseId\n      name\n      username\n      scopes\n      createdAt\n      revokedAt\n    }\n  }\n": typeof types.ConsoleTokensDocument,
    "\n  mutation ConsoleIssueToken($input: CreateApiTokenInput!) {\n    createApiToken(input: $input) {\n      __typename\n      ... on IssuedApiToken {\n        token\n        apiToken {\n          id\n          databaseId\n          name\n          username\n          scopes\n          createdAt\n          revokedAt\n        }\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleIssueTokenDocument,
    "\n  mutation ConsoleRevokeToken($id: Int!) {\n    revokeApiToken(input: { id: $id }) {\n      __typename\n      ... on ApiToken {\n        id\n        revokedAt\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": typeof types.ConsoleRevokeTokenDocument,
};
const documents: Documents = {
    "\n  query ConsoleApp($id: Int!) {\n    app(id: $id) {\n      id\n      databaseId\n      name\n      from\n      documentation\n      errors {\n        message\n      }\n      warnings {\n        message\n      }\n      services {\n        id\n        databaseId\n        name\n        from\n        activeState\n        subState\n        ports {\n          containerPort\n          hostPort\n          proto\n        }\n        errors {\n          message\n        }\n      }\n    }\n  }\n": types.ConsoleAppDocument,
    "\n  subscription ConsoleServiceStates($appId: Int!) {\n    serviceStateChanged(appId: $appId) {\n      serviceId\n      service {\n        id\n        activeState\n        subState\n      }\n    }\n  }\n": types.ConsoleServiceStatesDocument,
    "\n  query ConsoleAppJournal($appId: Int!, $cursor: String) {\n    appJournal(appId: $appId, cursor: $cursor, limit: 500) {\n      cursor\n      service\n      stream\n      message\n      timestamp\n    }\n  }\n": types.ConsoleAppJournalDocument,
    "\n  mutation ConsoleDeleteApp($id: Int!) {\n    deleteApp(input: { id: $id }) {\n      __typename\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleDeleteAppDocument,
    "\n  query ConsoleApps {\n    apps {\n      id\n      databaseId\n      name\n      from\n      errors {\n        message\n      }\n      services {\n        id\n        databaseId\n        name\n        activeState\n        subState\n      }\n    }\n  }\n": types.ConsoleAppsDocument,
    "\n  query ConsoleCatalog {\n    templateRepos {\n      id\n      databaseId\n      name\n      templateCount\n      updatedAt\n      loadErrors {\n        file\n        line\n        message\n      }\n    }\n    registries {\n      id\n      databaseId\n      name\n      endpointUrl\n      enabled\n      hasCredentials\n    }\n  }\n": types.ConsoleCatalogDocument,
    "\n  mutation ConsoleAddRepo($name: String!) {\n    createTemplateRepo(input: { name: $name }) {\n      __typename\n      ... on TemplateRepo {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleAddRepoDocument,
    "\n  mutation ConsoleReloadRepo($id: Int!) {\n    reloadTemplateRepo(input: { id: $id }) {\n      __typename\n      ... on TemplateRepo {\n        id\n        templateCount\n        updatedAt\n        loadErrors {\n          file\n          line\n          message\n        }\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleReloadRepoDocument,
    "\n  mutation ConsoleAddRegistry($input: CreateRegistryInput!) {\n    createRegistry(input: $input) {\n      __typename\n      ... on Registry {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleAddRegistryDocument,
    "\n  mutation ConsoleUpdateRegistry($input: UpdateRegistryInput!) {\n    updateRegistry(input: $input) {\n      __typename\n      ... on Registry {\n        id\n        name\n        endpointUrl\n        enabled\n        hasCredentials\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleUpdateRegistryDocument,
    "\n  query ConsoleTarget($id: Int!) {\n    deploymentTarget(id: $id) {\n      id\n      databaseId\n      name\n      endpointUrl\n      metadataError\n      metadata {\n        agentVersion\n        adapterType\n        adapterVersion\n      }\n      deployments {\n        id\n        databaseId\n        name\n        template\n        status {\n          services {\n            orchestratorId\n            actualState\n          }\n        }\n      }\n    }\n    templates {\n      id\n      databaseId\n      name\n      images {\n        name\n        source\n        environment {\n          variable\n          value\n        }\n      }\n    }\n  }\n": types.ConsoleTargetDocument,
    "\n  subscription ConsoleDeploymentStatus($id: Int!, $targetId: Int!) {\n    deploymentStatusChanged(id: $id, targetId: $targetId) {\n      error\n      deployment {\n        id\n        status {\n          services {\n            orchestratorId\n            actualState\n          }\n        }\n      }\n    }\n  }\n": types.ConsoleDeploymentStatusDocument,
    "\n  mutation ConsoleDeploy($input: CreateDeploymentInput!) {\n    createDeployment(input: $input) {\n      __typename\n      ... on Deployment {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleDeployDocument,
    "\n  mutation ConsoleRedeploy($id: Int!, $targetId: Int!) {\n    redeployDeployment(input: { id: $id, targetId: $targetId }) {\n      __typename\n      ... on Deployment {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleRedeployDocument,
    "\n  mutation ConsoleDeleteDeployment($id: Int!, $targetId: Int!) {\n    deleteDeployment(input: { id: $id, targetId: $targetId }) {\n      __typename\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleDeleteDeploymentDocument,
    "\n  query ConsoleTargets {\n    deploymentTargets {\n      id\n      databaseId\n      name\n      endpointUrl\n      metadataError\n      metadata {\n        agentVersion\n        adapterType\n        adapterVersion\n      }\n    }\n  }\n": types.ConsoleTargetsDocument,
    "\n  mutation ConsoleAddTarget($input: CreateDeploymentTargetInput!) {\n    createDeploymentTarget(input: $input) {\n      __typename\n      ... on DeploymentTarget {\n        id\n        databaseId\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleAddTargetDocument,
    "\n  query ConsoleSearch($q: String!) {\n    search(q: $q, limit: 30) {\n      items {\n        __typename\n        name\n        description\n        source\n        imageCount\n        images {\n          name\n          source\n        }\n        ... on Template {\n          id\n          databaseId\n          keywords\n        }\n        ... on RegistryImageTemplate {\n          registryId\n          registryName\n          starCount\n          isOfficial\n        }\n      }\n      errors {\n        message\n      }\n    }\n  }\n": types.ConsoleSearchDocument,
    "\n  mutation ConsoleCreateApp($input: CreateAppInput!) {\n    createApp(input: $input) {\n      __typename\n      ... on App {\n        id\n        databaseId\n        name\n      }\n      ... on Error {\n        code\n        message\n        fields\n      }\n    }\n  }\n": types.ConsoleCreateAppDocument,
    "\n  query ConsoleTokens {\n    apiTokens {\n      id\n      databaseId\n      name\n      username\n      scopes\n      createdAt\n      revokedAt\n    }\n  }\n": types.ConsoleTokensDocument,
    "\n  mutation ConsoleIssueToken($input: CreateApiTokenInput!) {\n    createApiToken(input: $input) {\n      __typename\n      ... on IssuedApiToken {\n        token\n        apiToken {\n          id\n          databaseId\n          name\n          username\n          scopes\n          createdAt\n          revokedAt\n        }\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleIssueTokenDocument,
    "\n  mutation ConsoleRevokeToken($id: Int!) {\n    revokeApiToken(input: { id: $id }) {\n      __typename\n      ... on ApiToken {\n        id\n        revokedAt\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n": types.ConsoleRevokeTokenDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleApp($id: Int!) {\n    app(id: $id) {\n      id\n      databaseId\n      name\n      from\n      documentation\n      errors {\n        message\n      }\n      warnings {\n        message\n      }\n      services {\n        id\n        databaseId\n        name\n        from\n        activeState\n        subState\n        ports {\n          containerPort\n          hostPort\n          proto\n        }\n        errors {\n          message\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleApp($id: Int!) {\n    app(id: $id) {\n      id\n      databaseId\n      name\n      from\n      documentation\n      errors {\n        message\n      }\n      warnings {\n        message\n      }\n      services {\n        id\n        databaseId\n        name\n        from\n        activeState\n        subState\n        ports {\n          containerPort\n          hostPort\n          proto\n        }\n        errors {\n          message\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleServiceStates($appId: Int!) {\n    serviceStateChanged(appId: $appId) {\n      serviceId\n      service {\n        id\n        activeState\n        subState\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ConsoleServiceStates($appId: Int!) {\n    serviceStateChanged(appId: $appId) {\n      serviceId\n      service {\n        id\n        activeState\n        subState\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAppJournal($appId: Int!, $cursor: String) {\n    appJournal(appId: $appId, cursor: $cursor, limit: 500) {\n      cursor\n      service\n      stream\n      message\n      timestamp\n    }\n  }\n"): (typeof documents)["\n  query ConsoleAppJournal($appId: Int!, $cursor: String) {\n    appJournal(appId: $appId, cursor: $cursor, limit: 500) {\n      cursor\n      service\n      stream\n      message\n      timestamp\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteApp($id: Int!) {\n    deleteApp(input: { id: $id }) {\n      __typename\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleDeleteApp($id: Int!) {\n    deleteApp(input: { id: $id }) {\n      __typename\n      ... on Error {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleApps {\n    apps {\n      id\n      databaseId\n      name\n      from\n      errors {\n        message\n      }\n      services {\n        id\n        databaseId\n        name\n        activeState\n        subState\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleApps {\n    apps {\n      id\n      databaseId\n      name\n      from\n      errors {\n        message\n      }\n      services {\n        id\n        databaseId\n        name\n        activeState\n        subState\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCatalog {\n    templateRepos {\n      id\n      databaseId\n      name\n      templateCount\n      updatedAt\n      loadErrors {\n        file\n        line\n        message\n      }\n    }\n    registries {\n      id\n      databaseId\n      name\n      endpointUrl\n      enabled\n      hasCredentials\n    }\n  }\n"): (typeof documents)["\n  query ConsoleCatalog {\n    templateRepos {\n      id\n      databaseId\n      name\n      templateCount\n      updatedAt\n      loadErrors {\n        file\n        line\n        message\n      }\n    }\n    registries {\n      id\n      databaseId\n      name\n      endpointUrl\n      enabled\n      hasCredentials\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAddRepo($name: String!) {\n    createTemplateRepo(input: { name: $name }) {\n      __typename\n      ... on TemplateRepo {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAddRepo($name: String!) {\n    createTemplateRepo(input: { name: $name }) {\n      __typename\n      ... on TemplateRepo {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleReloadRepo($id: Int!) {\n    reloadTemplateRepo(input: { id: $id }) {\n      __typename\n      ... on TemplateRepo {\n        id\n        templateCount\n        updatedAt\n        loadErrors {\n          file\n          line\n          message\n        }\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleReloadRepo($id: Int!) {\n    reloadTemplateRepo(input: { id: $id }) {\n      __typename\n      ... on TemplateRepo {\n        id\n        templateCount\n        updatedAt\n        loadErrors {\n          file\n          line\n          message\n        }\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAddRegistry($input: CreateRegistryInput!) {\n    createRegistry(input: $input) {\n      __typename\n      ... on Registry {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAddRegistry($input: CreateRegistryInput!) {\n    createRegistry(input: $input) {\n      __typename\n      ... on Registry {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateRegistry($input: UpdateRegistryInput!) {\n    updateRegistry(input: $input) {\n      __typename\n      ... on Registry {\n        id\n        name\n        endpointUrl\n        enabled\n        hasCredentials\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleUpdateRegistry($input: UpdateRegistryInput!) {\n    updateRegistry(input: $input) {\n      __typename\n      ... on Registry {\n        id\n        name\n        endpointUrl\n        enabled\n        hasCredentials\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTarget($id: Int!) {\n    deploymentTarget(id: $id) {\n      id\n      databaseId\n      name\n      endpointUrl\n      metadataError\n      metadata {\n        agentVersion\n        adapterType\n        adapterVersion\n      }\n      deployments {\n        id\n        databaseId\n        name\n        template\n        status {\n          services {\n            orchestratorId\n            actualState\n          }\n        }\n      }\n    }\n    templates {\n      id\n      databaseId\n      name\n      images {\n        name\n        source\n        environment {\n          variable\n          value\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTarget($id: Int!) {\n    deploymentTarget(id: $id) {\n      id\n      databaseId\n      name\n      endpointUrl\n      metadataError\n      metadata {\n        agentVersion\n        adapterType\n        adapterVersion\n      }\n      deployments {\n        id\n        databaseId\n        name\n        template\n        status {\n          services {\n            orchestratorId\n            actualState\n          }\n        }\n      }\n    }\n    templates {\n      id\n      databaseId\n      name\n      images {\n        name\n        source\n        environment {\n          variable\n          value\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleDeploymentStatus($id: Int!, $targetId: Int!) {\n    deploymentStatusChanged(id: $id, targetId: $targetId) {\n      error\n      deployment {\n        id\n        status {\n          services {\n            orchestratorId\n            actualState\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ConsoleDeploymentStatus($id: Int!, $targetId: Int!) {\n    deploymentStatusChanged(id: $id, targetId: $targetId) {\n      error\n      deployment {\n        id\n        status {\n          services {\n            orchestratorId\n            actualState\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeploy($input: CreateDeploymentInput!) {\n    createDeployment(input: $input) {\n      __typename\n      ... on Deployment {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleDeploy($input: CreateDeploymentInput!) {\n    createDeployment(input: $input) {\n      __typename\n      ... on Deployment {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRedeploy($id: Int!, $targetId: Int!) {\n    redeployDeployment(input: { id: $id, targetId: $targetId }) {\n      __typename\n      ... on Deployment {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleRedeploy($id: Int!, $targetId: Int!) {\n    redeployDeployment(input: { id: $id, targetId: $targetId }) {\n      __typename\n      ... on Deployment {\n        id\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteDeployment($id: Int!, $targetId: Int!) {\n    deleteDeployment(input: { id: $id, targetId: $targetId }) {\n      __typename\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleDeleteDeployment($id: Int!, $targetId: Int!) {\n    deleteDeployment(input: { id: $id, targetId: $targetId }) {\n      __typename\n      ... on Error {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTargets {\n    deploymentTargets {\n      id\n      databaseId\n      name\n      endpointUrl\n      metadataError\n      metadata {\n        agentVersion\n        adapterType\n        adapterVersion\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTargets {\n    deploymentTargets {\n      id\n      databaseId\n      name\n      endpointUrl\n      metadataError\n      metadata {\n        agentVersion\n        adapterType\n        adapterVersion\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAddTarget($input: CreateDeploymentTargetInput!) {\n    createDeploymentTarget(input: $input) {\n      __typename\n      ... on DeploymentTarget {\n        id\n        databaseId\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAddTarget($input: CreateDeploymentTargetInput!) {\n    createDeploymentTarget(input: $input) {\n      __typename\n      ... on DeploymentTarget {\n        id\n        databaseId\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSearch($q: String!) {\n    search(q: $q, limit: 30) {\n      items {\n        __typename\n        name\n        description\n        source\n        imageCount\n        images {\n          name\n          source\n        }\n        ... on Template {\n          id\n          databaseId\n          keywords\n        }\n        ... on RegistryImageTemplate {\n          registryId\n          registryName\n          starCount\n          isOfficial\n        }\n      }\n      errors {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleSearch($q: String!) {\n    search(q: $q, limit: 30) {\n      items {\n        __typename\n        name\n        description\n        source\n        imageCount\n        images {\n          name\n          source\n        }\n        ... on Template {\n          id\n          databaseId\n          keywords\n        }\n        ... on RegistryImageTemplate {\n          registryId\n          registryName\n          starCount\n          isOfficial\n        }\n      }\n      errors {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateApp($input: CreateAppInput!) {\n    createApp(input: $input) {\n      __typename\n      ... on App {\n        id\n        databaseId\n        name\n      }\n      ... on Error {\n        code\n        message\n        fields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleCreateApp($input: CreateAppInput!) {\n    createApp(input: $input) {\n      __typename\n      ... on App {\n        id\n        databaseId\n        name\n      }\n      ... on Error {\n        code\n        message\n        fields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTokens {\n    apiTokens {\n      id\n      databaseId\n      name\n      username\n      scopes\n      createdAt\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTokens {\n    apiTokens {\n      id\n      databaseId\n      name\n      username\n      scopes\n      createdAt\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleIssueToken($input: CreateApiTokenInput!) {\n    createApiToken(input: $input) {\n      __typename\n      ... on IssuedApiToken {\n        token\n        apiToken {\n          id\n          databaseId\n          name\n          username\n          scopes\n          createdAt\n          revokedAt\n        }\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleIssueToken($input: CreateApiTokenInput!) {\n    createApiToken(input: $input) {\n      __typename\n      ... on IssuedApiToken {\n        token\n        apiToken {\n          id\n          databaseId\n          name\n          username\n          scopes\n          createdAt\n          revokedAt\n        }\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRevokeToken($id: Int!) {\n    revokeApiToken(input: { id: $id }) {\n      __typename\n      ... on ApiToken {\n        id\n        revokedAt\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleRevokeToken($id: Int!) {\n    revokeApiToken(input: { id: $id }) {\n      __typename\n      ... on ApiToken {\n        id\n        revokedAt\n      }\n      ... on Error {\n        message\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;