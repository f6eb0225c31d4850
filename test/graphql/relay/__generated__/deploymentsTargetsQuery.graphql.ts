/**
 * @generated SignedSource<<d15475ad7afe042bcd0b7c9fa3ab4188>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ConcreteRequest } from 'relay-runtime';
export type deploymentsTargetsQuery$variables = Record<PropertyKey, never>;
export type deploymentsTargetsQuery$data = {
  readonly deploymentTargets: ReadonlyArray<{
    readonly deployments: ReadonlyArray<{
      readonly databaseId: number;
      readonly id: string;
      readonly name: string | null | undefined;
      readonly status: {
        readonly services: ReadonlyArray<{
          readonly actualState: string;
          readonly orchestratorId: string;
        }>;
      } | null | undefined;
      readonly target: {
        readonly id: string;
        readonly name: string;
      };
    }> | null | undefined;
    readonly id: string;
    readonly name: string;
  }>;
};
export type deploymentsTargetsQuery = {
  response: deploymentsTargetsQuery$data;
  variables: deploymentsTargetsQuery$variables;
};

const node: ConcreteRequest = (function(){
var v0 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "id",
  "storageKey": null
},
v1 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "name",
  "storageKey": null
},
v2 = [
  {
    "alias": null,
    "args": null,
    "concreteType": "DeploymentTarget",
    "kind": "LinkedField",
    "name": "deploymentTargets",
    "plural": true,
    "selections": [
      (v0/*:: as any*/),
      (v1/*:: as any*/),
      {
        "alias": null,
        "args": null,
        "concreteType": "Deployment",
        "kind": "LinkedField",
        "name": "deployments",
        "plural": true,
        "selections": [
          (v0/*:: as any*/),
          {
            "alias": null,
            "args": null,
            "kind": "ScalarField",
            "name": "databaseId",
            "storageKey": null
          },
          (v1/*:: as any*/),
          {
            "alias": null,
            "args": null,
            "concreteType": "DeploymentTarget",
            "kind": "LinkedField",
            "name": "target",
            "plural": false,
            "selections": [
              (v0/*:: as any*/),
              (v1/*:: as any*/)
            ],
            "storageKey": null
          },
          {
            "alias": null,
            "args": null,
            "concreteType": "DeploymentStatus",
            "kind": "LinkedField",
            "name": "status",
            "plural": false,
            "selections": [
              {
                "alias": null,
                "args": null,
                "concreteType": "DeploymentServiceState",
                "kind": "LinkedField",
                "name": "services",
                "plural": true,
                "selections": [
                  {
                    "alias": null,
                    "args": null,
                    "kind": "ScalarField",
                    "name": "orchestratorId",
                    "storageKey": null
                  },
                  {
                    "alias": null,
                    "args": null,
                    "kind": "ScalarField",
                    "name": "actualState",
                    "storageKey": null
                  }
                ],
                "storageKey": null
              }
            ],
            "storageKey": null
          }
        ],
        "storageKey": null
      }
    ],
    "storageKey": null
  }
];
return {
  "fragment": {
    "argumentDefinitions": [],
    "kind": "Fragment",
    "metadata": null,
    "name": "deploymentsTargetsQuery",
    "selections": (v2/*:: as any*/),
    "type": "Query",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": [],
    "kind": "Operation",
    "name": "deploymentsTargetsQuery",
    "selections": (v2/*:: as any*/)
  },
  "params": {
    "cacheID": "0a6c8f261cb354acd5593e2daea136ce",
    "id": null,
    "metadata": {},
    "name": "deploymentsTargetsQuery",
    "operationKind": "query",
    "text": "query deploymentsTargetsQuery {\n  deploymentTargets {\n    id\n    name\n    deployments {\n      id\n      databaseId\n      name\n      target {\n        id\n        name\n      }\n      status {\n        services {\n          orchestratorId\n          actualState\n        }\n      }\n    }\n  }\n}\n"
  }
};
})();

(node as any).hash = "346ec36b01f96b2392648075e8d25108";

export default node;
