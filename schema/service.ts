import { serviceCategories, type ReplicaView, type ServiceView } from '../src/apps/service-view';
import { serviceRunDefinition, type ServiceRunDefinition } from '../src/apps/service-definition';
import {
  camel,
  envView,
  portView,
  SERVICE_TEXT_PART_KEYS,
  TEXT_PARTS,
  volumeView,
  type Camel,
  type CamelTextParts,
  type ServiceTextPartKey,
} from '../src/parts/image';
import { App, CategoryPosition, JournalEntry } from './app';
import { databaseId, orNull } from './global-id';
import { builder } from './builder';
import {
  EnvironmentVariable,
  EnvironmentVariableInput,
  Port,
  PortInput,
  Volume,
  VolumeFrom,
  VolumeInput,
  envDefs,
  portDefs,
  volumeDefs,
  givenTextParts,
  textPartInputs,
} from './container-parts';
import { DEFAULT_LIMIT as JOURNAL_DEFAULT_LIMIT } from '../src/apps/journal';
import { byLimit } from '../src/graphql/cost';

export const ServiceError = builder.objectRef<{ code: number; message: string; fields: string }>('ServiceError').implement({
  description: 'What went wrong when the service was last started, or why its state is unknown',
  fields: (t) => ({ code: t.exposeInt('code'), message: t.exposeString('message'), fields: t.exposeString('fields') }),
});

export const ServiceReplica = builder.objectRef<ReplicaView>('ServiceReplica').implement({
  description: "One container of a service of several (compose deploy.replicas / scale), with the engine's state of it",
  fields: (t) => ({
    number: t.exposeInt('number', { description: '1 for the first container (whose state is the service’s own)' }),
    name: t.exposeString('name', { description: "The container's name on the engine" }),
    containerId: t.exposeString('containerId'),
    status: t.exposeString('status', { description: "The engine's words (Up 5 seconds, Exited (0) ...)" }),
    loadState: t.string({ nullable: true, resolve: (r) => r.state.load_state }),
    activeState: t.string({ nullable: true, resolve: (r) => r.state.active_state }),
    subState: t.string({ nullable: true, resolve: (r) => r.state.sub_state }),
  }),
});

export const ServiceDependency = builder.objectRef<ServiceRunDefinition['dependsOn'][number]>('ServiceDependency').implement({
  description: 'A service this one waits for before it starts (compose depends_on)',
  fields: (t) => ({
    service: t.exposeString('service', { description: "The other service's name" }),
    condition: t.exposeString('condition', {
      description: 'What it waits for: service_started, service_healthy or service_completed_successfully',
    }),
    required: t.exposeBoolean('required', { description: 'false: a missing service is not waited for' }),
    restart: t.exposeBoolean('restart', { description: 'true: this service is recreated whenever that one is' }),
  }),
});

interface LinkShape {
  to: ServiceView['service'];
  alias: string;
}

export const Service = builder.nodeRef<ServiceView, number>('Service', {
  id: { resolve: (v) => v.service.id, parse: databaseId },
  loadOne: (id, ctx) => orNull(ctx.services.appServices.getById(id)),
});

/**
 * A link of a service: a value of the linking service, with no id of its own (two links to one
 * service with different aliases are two values, not one object).
 */
export const ServiceLink = builder.objectRef<LinkShape>('ServiceLink').implement({
  fields: (t) => ({
    service: t.loadable({
      type: Service,
      description: 'The linked service',
      load: (ids: number[], ctx) => ctx.services.appServices.byIds(ids),
      sort: (view) => view.service.id,
      resolve: (l) => l.to.id,
    }),
    serviceName: t.string({ description: 'Name of the linked service', resolve: (l) => l.to.name }),
    linkedServiceId: t.string({
      description: "The linked service's databaseId as a string (interface A's link id)",
      resolve: (l) => String(l.to.id),
    }),
    serviceId: t.int({
      description: "The linked service's databaseId (interface A's and the original UI's link id)",
      resolve: (l) => l.to.id,
    }),
    alias: t.exposeString('alias'),
  }),
});

Service.implement({
  description: "One container of an app, with the engine's view of it",
  fields: (t) => ({
    databaseId: t.int({ resolve: (v) => v.service.id }),
    name: t.string({ resolve: (v) => v.service.name }),
    from: t.string({ resolve: (v) => v.service.from }),
    pinnedImage: t.string({
      nullable: true,
      description:
        'What its containers run instead of `from` since a rollback pinned it (`repository@sha256:…`, or an image id); null: `from`. A redeploy lets it go',
      resolve: (v) => v.service.pinnedImage ?? null,
    }),
    ports: t.field({ type: [Port], resolve: (v) => v.service.ports.map(portView) }),
    expose: t.stringList({ resolve: (v) => v.service.expose }),
    defaultExposedPorts: t.stringList({ resolve: (v) => v.service.defaultExposedPorts }),
    environment: t.field({ type: [EnvironmentVariable], resolve: (v) => v.service.environment.map(envView) }),
    volumes: t.field({ type: [Volume], resolve: (v) => v.service.volumes.map(volumeView) }),
    entrypoint: t.stringList({
      nullable: true,
      description: "The entrypoint the container runs (compose entrypoint); null: the image's own",
      resolve: (v) => serviceRunDefinition(v.service).entrypoint,
    }),
    user: t.string({
      nullable: true,
      description: "The user it runs as; null: the image's",
      resolve: (v) => serviceRunDefinition(v.service).user,
    }),
    workingDir: t.string({
      nullable: true,
      description: "The working directory; null: the image's",
      resolve: (v) => serviceRunDefinition(v.service).workingDir,
    }),
    restart: t.string({
      nullable: true,
      description: "The restart policy (no, always, unless-stopped, on-failure[:N]); null: none given, the engine's (no)",
      resolve: (v) => serviceRunDefinition(v.service).restart,
    }),
    dependsOn: t.field({
      type: [ServiceDependency],
      description: 'The services it waits for before it starts (compose depends_on)',
      resolve: (v) => serviceRunDefinition(v.service).dependsOn,
    }),
    loadState: t.string({ nullable: true, resolve: (v) => v.state.load_state }),
    activeState: t.string({ nullable: true, resolve: (v) => v.state.active_state }),
    subState: t.string({ nullable: true, resolve: (v) => v.state.sub_state }),
    ...Object.fromEntries(
      SERVICE_TEXT_PART_KEYS.map((key) => [
        camel(key),
        t.string({ nullable: true, description: TEXT_PARTS[key].description, resolve: (v) => v.service[camel(key)] ?? null }),
      ]),
    ),
    errors: t.field({ type: ServiceError, nullable: true, resolve: (v) => v.errors }),
    replicas: t.field({
      type: [ServiceReplica],
      description: "Each of its containers' state, by replica number; empty when it has none or the engine cannot be asked",
      resolve: (v) => v.replicas,
    }),
    containerStatus: t.field({
      type: 'JSON',
      description: "The engine's data on the container; {} when there is none",
      resolve: (v) => v.containerStatus,
    }),
    app: t.field({ type: App, description: 'The app it belongs to', resolve: (v) => v.service.app }),
    categories: t.field({
      type: [CategoryPosition],
      description: "The app's categories at this service's positions",
      resolve: (v) => serviceCategories(v.service),
    }),
    links: t.field({ type: [ServiceLink], resolve: (v) => v.service.links.getItems().map((l) => ({ to: l.to, alias: l.alias })) }),
    volumesFrom: t.field({
      type: [VolumeFrom],
      resolve: (v) => v.service.volumesFrom.getItems().map((s) => ({ service: s.exportedFrom.name, serviceId: s.exportedFrom.id })),
    }),
  }),
});

// On App, but here beside the Service type it lists.
builder.objectField(App, 'services', (t) =>
  t.loadableGroup({
    type: Service,
    nullable: true,
    description: "The app's services with their live states; for a list of apps, one query and one engine call in all",
    load: (appIds: number[], ctx) => ctx.services.appServices.ofApps(appIds),
    group: (view) => view.service.app.id,
    resolve: (app) => app.id,
  }),
);

const ServiceLinkInput = builder.inputType('ServiceLinkInput', {
  description: 'A link to another service of the same app, by id (`id` or `service_id`) or by name (`service`)',
  fields: (t) => ({ id: t.id(), serviceId: t.int(), service: t.string(), alias: t.string() }),
});
const VolumesFromInput = builder.inputType('VolumesFromInput', {
  fields: (t) => ({ service: t.string(), serviceId: t.int() }),
});
const ServiceCategoryInput = builder.inputType('ServiceCategoryInput', {
  fields: (t) => ({ id: t.int({ required: true }), position: t.int() }),
});

const serviceFields = (t: Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0], required: boolean) => ({
  name: t.string({ required }),
  from: t.string({ required }),
  ...textPartInputs(t, SERVICE_TEXT_PART_KEYS),
  ports: t.field({ type: [PortInput] }),
  expose: t.stringList(),
  environment: t.field({ type: [EnvironmentVariableInput] }),
  volumes: t.field({ type: [VolumeInput] }),
  links: t.field({ type: [ServiceLinkInput] }),
  volumesFrom: t.field({ type: [VolumesFromInput] }),
  categories: t.field({ type: [ServiceCategoryInput] }),
});

const NewServiceInput = builder.inputType('NewServiceInput', {
  fields: (t) => ({ appId: t.int({ required: true, description: 'The app to add it to' }), ...serviceFields(t, true) }),
});
const UpdateServiceInput = builder.inputType('UpdateServiceInput', {
  description: 'The fields to change; every list given replaces the stored one',
  fields: (t) => ({
    appId: t.int({ required: true }),
    id: t.int({ required: true }),
    ...serviceFields(t, false),
    restart: t.field({ type: 'JSON', description: 'false (or "false") saves without recreating the container' }),
  }),
});

const ServiceIdInput = builder.inputType('ServiceIdInput', {
  fields: (t) => ({ appId: t.int({ required: true }), id: t.int({ required: true }) }),
});

type ServiceFieldsInput = Partial<Pick<CamelTextParts, Camel<ServiceTextPartKey>>> & {
  name?: string | null;
  from?: string | null;
  ports?: Parameters<typeof portDefs>[0];
  expose?: readonly string[] | null;
  environment?: Parameters<typeof envDefs>[0];
  volumes?: Parameters<typeof volumeDefs>[0];
  links?: readonly { id?: string | number | null; serviceId?: number | null; service?: string | null; alias?: string | null }[] | null;
  volumesFrom?: readonly { service?: string | null; serviceId?: number | null }[] | null;
  categories?: readonly { id: number; position?: number | null }[] | null;
};

/** GraphQL input to the domain's: lists only where given (on update, absent lists stay as they are). */
function serviceInput(input: ServiceFieldsInput) {
  return {
    name: input.name,
    from: input.from,
    ...givenTextParts(input, SERVICE_TEXT_PART_KEYS),
    ports: input.ports ? portDefs(input.ports) : undefined,
    expose: input.expose ? [...input.expose] : undefined,
    environment: input.environment ? envDefs(input.environment) : undefined,
    volumes: input.volumes ? volumeDefs(input.volumes) : undefined,
    links: input.links ? [...input.links] : undefined,
    volumesFrom: input.volumesFrom ? [...input.volumesFrom] : undefined,
    categories: input.categories ? [...input.categories] : undefined,
  };
}

builder.queryFields((t) => ({
  services: t.field({
    type: [Service],
    authScopes: { read: true },
    nullable: true,
    description: "The app's services with their live states (one engine call for the list); null with a NOT_FOUND error for an unknown app",
    args: { appId: t.arg.int({ required: true }) },
    resolve: (_root, { appId }, ctx) => ctx.services.appServices.list(appId),
  }),
  service: t.field({
    type: Service,
    nullable: true,
    description: 'The service with this databaseId in this app; null (with a NOT_FOUND error) when there is none',
    authScopes: { read: true },
    args: { appId: t.arg.int({ required: true }), id: t.arg.int({ required: true }) },
    resolve: (_root, { appId, id }, ctx) => ctx.services.appServices.get(appId, id),
  }),
  serviceJournal: t.field({
    type: [JournalEntry],
    nullable: true,
    authScopes: { read: true },
    args: {
      appId: t.arg.int({ required: true }),
      id: t.arg.int({ required: true }),
      since: t.arg.string(),
      cursor: t.arg.string(),
      limit: t.arg.int(),
    },
    complexity: byLimit(JOURNAL_DEFAULT_LIMIT, 10 * JOURNAL_DEFAULT_LIMIT),
    resolve: (_root, { appId, id, ...query }, ctx) => ctx.services.appServices.journal(appId, id, query),
  }),
}));

builder.mutationFields((t) => ({
  createService: t.field({
    type: Service,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: NewServiceInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.appServices.create(input.appId, serviceInput(input)),
  }),
  updateService: t.field({
    type: Service,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: UpdateServiceInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.appServices.update(
        input.appId,
        input.id,
        serviceInput(input),
        input.restart !== false && input.restart !== 'false',
      );
      return ctx.services.appServices.get(input.appId, input.id);
    },
  }),
  deleteService: t.field({
    type: Service,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: ServiceIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.appServices.delete(input.appId, input.id),
  }),
}));
