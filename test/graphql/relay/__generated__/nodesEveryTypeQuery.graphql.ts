/**
 * @generated SignedSource<<d6162d21e43a1003ecd500b0c87c4a24>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ConcreteRequest } from 'relay-runtime';
export type nodesEveryTypeQuery$variables = {
  ids: ReadonlyArray<string>;
};
export type nodesEveryTypeQuery$data = {
  readonly nodes: ReadonlyArray<{
    readonly __typename: string;
    readonly databaseId?: number;
    readonly id: string;
  } | null | undefined>;
};
export type nodesEveryTypeQuery = {
  response: nodesEveryTypeQuery$data;
  variables: nodesEveryTypeQuery$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "ids"
  }
],
v1 = [
  {
    "alias": null,
    "args": null,
    "kind": "ScalarField",
    "name": "databaseId",
    "storageKey": null
  }
],
v2 = [
  {
    "alias": null,
    "args": [
      {
        "kind": "Variable",
        "name": "ids",
        "variableName": "ids"
      }
    ],
    "concreteType": null,
    "kind": "LinkedField",
    "name": "nodes",
    "plural": true,
    "selections": [
      {
        "alias": null,
        "args": null,
        "kind": "ScalarField",
        "name": "__typename",
        "storageKey": null
      },
      {
        "alias": null,
        "args": null,
        "kind": "ScalarField",
        "name": "id",
        "storageKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "App",
        "abstractKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "Registry",
        "abstractKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "TemplateRepo",
        "abstractKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "DeploymentTarget",
        "abstractKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "Deployment",
        "abstractKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "Service",
        "abstractKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "Category",
        "abstractKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "Template",
        "abstractKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "ApiToken",
        "abstractKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "DeployHook",
        "abstractKey": null
      },
      {
        "kind": "InlineFragment",
        "selections": (v1/*:: as any*/),
        "type": "EventSubscription",
        "abstractKey": null
      }
    ],
    "storageKey": null
  }
];
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "nodesEveryTypeQuery",
    "selections": (v2/*:: as any*/),
    "type": "Query",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Operation",
    "name": "nodesEveryTypeQuery",
    "selections": (v2/*:: as any*/)
  },
  "params": {
    "cacheID": "93f54645f899fdaff7117209dc9bf3d1",
    "id": null,
    "metadata": {},
    "name": "nodesEveryTypeQuery",
    "operationKind": "query",
    "text": "query nodesEveryTypeQuery(\n  $ids: [ID!]!\n) {\n  nodes(ids: $ids) {\n    __typename\n    id\n    ... on App {\n      databaseId\n    }\n    ... on Registry {\n      databaseId\n    }\n    ... on TemplateRepo {\n      databaseId\n    }\n    ... on DeploymentTarget {\n      databaseId\n    }\n    ... on Deployment {\n      databaseId\n    }\n    ... on Service {\n      databaseId\n    }\n    ... on Category {\n      databaseId\n    }\n    ... on Template {\n      databaseId\n    }\n    ... on ApiToken {\n      databaseId\n    }\n    ... on DeployHook {\n      databaseId\n    }\n    ... on EventSubscription {\n      databaseId\n    }\n  }\n}\n"
  }
};
})();

(node as any).hash = "2e4b5c3581eadffd21d0c8ee3b13ccd8";

export default node;
