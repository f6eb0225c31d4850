/**
 * The interface-A bodies (the spec's snake_case) as far as the tests read their fields; a test
 * that checks a whole body compares it with `toEqual` instead. The request helpers return the
 * body typed as the test declares (test/helpers/app.ts).
 */
export type { ErrorBody } from '../../src/errors';

/** Anything the service stores and answers with its id. */
export interface Identified {
  id: number;
}

export interface Named extends Identified {
  name: string;
}

export interface CategoryBody extends Named {
  position: number;
}

/** An app (`/apps`, `/apps/:id`). */
export interface AppBody extends Named {
  from: string;
  errors: unknown[];
  categories: CategoryBody[];
}

/**
 * A service's container as the engine reports it. Null in the body before a container exists;
 * declared present because the tests read it on services that run or ran.
 */
export interface ContainerStatusBody {
  id: string;
  state: string;
  ports: unknown[];
  info: { NetworkSettings: { Networks: Record<string, unknown> } };
}

/** A service of an app (`/apps/:app_id/services[/:id]`). */
export interface ServiceBody extends Named {
  load_state: string;
  active_state: string;
  sub_state: string;
  from: string;
  command: string | null;
  expose: string[];
  ports: PortBody[];
  environment: { variable: string; value: string; required: boolean | null }[];
  volumes: { host_path: string | null; container_path: string }[];
  links: { id: string; service: string; alias: string }[];
  categories: { id: number; position: number }[];
  container_status: ContainerStatusBody;
  errors: unknown;
}

export interface PortBody {
  host_interface: string | null;
  host_port: number | null;
  container_port: number;
  proto: string;
}

/** A template (`/templates`, `/templates/:id`). */
export interface TemplateBody extends Named {
  source: string | null;
  images: ImageBody[];
}

export interface ImageBody extends Named {
  source: string;
  links: { service: string; alias: string }[];
}

/** A template repo (`/template_repos`). */
export interface RepoBody extends Named {
  template_count: number;
  updated_at: string;
}

/** One line of an app's or a service's journal. */
export interface JournalEntry {
  timestamp: string;
  service: string;
  stream: string;
  message: string;
  cursor: string;
}

/** A deployment target (`/deployment_targets`). */
export interface TargetBody extends Named {
  endpoint_url: string;
  auth_blob: string;
  metadata: unknown;
}

/** A deployment with its per-service state (`/deployment_targets/:id/deployments/:id`). */
export interface DeploymentBody extends Named {
  status: { services: { id: string; actualState: string }[] };
}

/** A deployment as the list shows it (`/deployment_targets/:id/deployments`). */
export interface DeploymentListItem extends Named {
  template: number;
  service_ids: { name: string }[];
}
