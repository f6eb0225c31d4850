import { shellWords } from '../../engines/shell-words';
import { contextLabel, gitContext, isRemoteContext, type GitContext } from '../build-context';
import { buildContext, readInside } from './files';
import { isMapping, type ComposeModel, type Mapping } from './loader';
import { volumeSourceKind } from '../../parts/names';
import { networksOf } from './networks';
import type { DependsOnCondition, ServiceOptions } from '../service-options';

// Each key is honoured, warned about (it changes nothing the app needs) or refused with a 422; a
// key in no set is refused too, so nothing is dropped in silence.
export const TEMPLATE_KEYS = [
  'image',
  'command',
  'ports',
  'expose',
  'links',
  'environment',
  'volumes',
  'volumes_from',
  'deploy',
  'scale',
  'profiles',
  'build',
  'env_file',
];
export const ENGINE_KEYS = [
  'entrypoint',
  'user',
  'working_dir',
  'hostname',
  'domainname',
  'tty',
  'stdin_open',
  'labels',
  'healthcheck',
  'stop_signal',
  'stop_grace_period',
  'restart',
  'cap_add',
  'cap_drop',
  'devices',
  'sysctls',
  'ulimits',
  'shm_size',
  'tmpfs',
  'read_only',
  'init',
  'privileged',
  'extra_hosts',
  'dns',
  'dns_search',
  'dns_opt',
  'logging',
  'mem_limit',
  'memswap_limit',
  'cpus',
  'cpu_shares',
  'pids_limit',
  'security_opt',
  'group_add',
  'oom_score_adj',
  'pid',
  'ipc',
  'network_mode',
  'networks',
  'depends_on',
  'secrets',
  'configs',
];
/** Each with what happens instead. */
export const WARNED_KEYS: Record<string, string> = {
  container_name: 'containers get app-scoped names so that copies of an app run side by side; the service is reached by its own name',
  platform: 'the engine runs its own platform',
  pull_policy: 'images the engine has are used; missing ones are pulled',
  runtime: 'the engine default runtime is used',
};
export const REFUSED_KEYS: Record<string, string> = {
  external_links: 'an app only reaches its own services',
  cgroup_parent: 'not supported',
  userns_mode: 'not supported',
  isolation: 'not supported',
};

export interface BuildSpec {
  /** As written, without credentials. */
  context: string;
  /** Confined to the repo's checkout. */
  contextDir?: string;
  /** Fetched when the app is made, whichever way the file was given. */
  git?: GitContext;
  dockerfile: string;
  args: Record<string, string>;
  target?: string;
}

export const NO_DIRECTORY =
  "an app's compose file given inline has no directory on the server: create the app from its template repo (compose_repo_id and compose_file)";

export interface MappedOptions {
  options: ServiceOptions;
  /** Set when the service's image is built here. */
  build?: BuildSpec;
  warnings: string[];
  problems: string[];
}

const NS = 1_000_000_000;

export function serviceOptions(name: string, svc: Mapping, model: ComposeModel): MappedOptions {
  const at = `services.${name}`;
  const warnings: string[] = [];
  const problems: string[] = [];
  const config: Mapping = {};
  const host: Mapping = {};
  const options: ServiceOptions = {};

  for (const key of Object.keys(svc)) {
    if (key.startsWith('x-') || TEMPLATE_KEYS.includes(key) || ENGINE_KEYS.includes(key)) continue;
    // An empty value (`platform: ${DOCKER_PLATFORM:-}`) asks for nothing.
    if (key in WARNED_KEYS) {
      if (svc[key] !== '' && svc[key] != null) warnings.push(`${at}.${key} is ignored: ${WARNED_KEYS[key]}`);
    } else problems.push(`${at}.${key}: ${REFUSED_KEYS[key] || 'is not supported'}`);
  }
  const build = svc.build != null ? buildOf(at, svc.build, model, problems) : undefined;
  // A git context needs no directory; any other remote one was refused by buildOf.
  if (svc.build != null && !model.directory && !isRemoteContext(contextOf(svc.build))) {
    if (svc.image != null) warnings.push(`${at}.build is ignored: ${NO_DIRECTORY}; the image ${str(svc.image)} is run as given`);
    else problems.push(`${at}.build: ${NO_DIRECTORY}; or give the image to run`);
  }
  if (svc.env_file != null && !model.directory) problems.push(`${at}.env_file: ${NO_DIRECTORY}; or put the variables in environment`);
  if (isMapping(svc.deploy)) {
    for (const key of Object.keys(svc.deploy)) {
      if (key !== 'replicas') warnings.push(`${at}.deploy.${key} is ignored: only deploy.replicas applies to apps on one engine`);
    }
  }

  const words = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : shellWords(str(value)));
  const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value == null ? [] : [str(value)]);
  const map = (value: unknown): Record<string, string> => {
    if (isMapping(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v == null ? '' : str(v)]));
    return Object.fromEntries(
      list(value).map((item) => {
        const eq = item.indexOf('=');
        return eq < 0 ? [item, ''] : [item.slice(0, eq), item.slice(eq + 1)];
      }),
    );
  };

  if (svc.entrypoint != null) config.Entrypoint = words(svc.entrypoint);
  if (svc.user != null) config.User = str(svc.user);
  if (svc.working_dir != null) config.WorkingDir = str(svc.working_dir);
  if (svc.hostname != null) config.Hostname = str(svc.hostname);
  if (svc.domainname != null) config.Domainname = str(svc.domainname);
  if (svc.tty != null) config.Tty = Boolean(svc.tty);
  if (svc.stdin_open != null) config.OpenStdin = Boolean(svc.stdin_open);
  if (svc.labels != null) config.Labels = map(svc.labels);
  if (svc.stop_signal != null) config.StopSignal = str(svc.stop_signal);
  if (svc.stop_grace_period != null)
    config.StopTimeout = Math.ceil(duration(svc.stop_grace_period, `${at}.stop_grace_period`, problems) / NS);
  if (isMapping(svc.healthcheck)) {
    const hc = svc.healthcheck;
    if (hc.disable === true) config.Healthcheck = { Test: ['NONE'] };
    else {
      const test = Array.isArray(hc.test) ? hc.test.map(String) : hc.test != null ? ['CMD-SHELL', str(hc.test)] : undefined;
      config.Healthcheck = {
        ...(test ? { Test: test } : {}),
        ...(hc.interval != null ? { Interval: duration(hc.interval, `${at}.healthcheck.interval`, problems) } : {}),
        ...(hc.timeout != null ? { Timeout: duration(hc.timeout, `${at}.healthcheck.timeout`, problems) } : {}),
        ...(hc.start_period != null ? { StartPeriod: duration(hc.start_period, `${at}.healthcheck.start_period`, problems) } : {}),
        ...(hc.start_interval != null ? { StartInterval: duration(hc.start_interval, `${at}.healthcheck.start_interval`, problems) } : {}),
        ...(hc.retries != null ? { Retries: Number(hc.retries) } : {}),
      };
    }
  }
  if (isMapping(svc.healthcheck) && svc.healthcheck.start_interval != null && svc.healthcheck.disable !== true) {
    warnings.push(
      `${at}.healthcheck.start_interval is given to the engine, which honours it from API version 1.44 (Docker 25) on; an older engine checks at interval from the start`,
    );
  }
  if (svc.cap_add != null) host.CapAdd = list(svc.cap_add);
  if (svc.cap_drop != null) host.CapDrop = list(svc.cap_drop);
  if (svc.devices != null) {
    host.Devices = list(svc.devices).map((d) => {
      const [from, to = from, perms = 'rwm'] = d.split(':');
      return { PathOnHost: from, PathInContainer: to, CgroupPermissions: perms };
    });
  }
  if (svc.sysctls != null) host.Sysctls = map(svc.sysctls);
  if (isMapping(svc.ulimits)) {
    host.Ulimits = Object.entries(svc.ulimits).map(([ulimit, v]) =>
      isMapping(v) ? { Name: ulimit, Soft: Number(v.soft), Hard: Number(v.hard) } : { Name: ulimit, Soft: Number(v), Hard: Number(v) },
    );
  }
  if (svc.shm_size != null) host.ShmSize = bytes(svc.shm_size, `${at}.shm_size`, problems);
  if (svc.mem_limit != null) host.Memory = bytes(svc.mem_limit, `${at}.mem_limit`, problems);
  if (svc.memswap_limit != null) host.MemorySwap = bytes(svc.memswap_limit, `${at}.memswap_limit`, problems);
  if (svc.cpus != null) host.NanoCpus = Math.round(Number(svc.cpus) * NS);
  if (svc.cpu_shares != null) host.CpuShares = Number(svc.cpu_shares);
  if (svc.pids_limit != null) host.PidsLimit = Number(svc.pids_limit);
  if (svc.oom_score_adj != null) host.OomScoreAdj = Number(svc.oom_score_adj);
  const tmpfs = tmpfsOf(at, svc, problems);
  if (Object.keys(tmpfs).length) host.Tmpfs = tmpfs;
  if (svc.read_only != null) host.ReadonlyRootfs = Boolean(svc.read_only);
  if (svc.init != null) host.Init = Boolean(svc.init);
  if (svc.privileged != null) host.Privileged = Boolean(svc.privileged);
  if (svc.extra_hosts != null) {
    host.ExtraHosts = isMapping(svc.extra_hosts)
      ? Object.entries(svc.extra_hosts).map(([h, ip]) => `${h}:${str(ip)}`)
      : list(svc.extra_hosts).map((e) => e.replace('=', ':'));
  }
  if (svc.dns != null) host.Dns = list(svc.dns);
  if (svc.dns_search != null) host.DnsSearch = list(svc.dns_search);
  if (svc.dns_opt != null) host.DnsOptions = list(svc.dns_opt);
  if (svc.security_opt != null) host.SecurityOpt = list(svc.security_opt);
  if (svc.group_add != null) host.GroupAdd = list(svc.group_add);
  if (svc.pid != null) host.PidMode = str(svc.pid);
  if (svc.ipc != null) {
    if (str(svc.ipc).startsWith('service:')) problems.push(`${at}.ipc: sharing another service's IPC namespace is not supported`);
    else host.IpcMode = str(svc.ipc);
  }
  if (isMapping(svc.logging)) {
    host.LogConfig = { Type: str(svc.logging.driver ?? 'json-file'), Config: map(svc.logging.options ?? {}) };
  }
  if (svc.network_mode != null) {
    if (svc.network_mode === 'none' || svc.network_mode === 'host') {
      problems.push(
        `${at}.network_mode: "${str(svc.network_mode)}" would take the service off its app's network, where its links and name resolve; not supported`,
      );
    } else problems.push(`${at}.network_mode: "${str(svc.network_mode)}" is not supported: services join their app's networks`);
  }

  // No `networks:` joins the default network, which the file may still give subnets of its own.
  const networks = svc.networks ?? (isMapping(model.networks.default) && model.networks.default.ipam != null ? ['default'] : undefined);
  options.networks = networksOf(at, networks, model, problems, warnings);
  if (options.networks.length === 0) delete options.networks;
  const fixed = options.networks?.find((n) => n.ipv4Address);
  const replicaCount = isMapping(svc.deploy) ? svc.deploy.replicas : svc.scale;
  if (fixed && typeof replicaCount === 'number' && replicaCount > 1)
    problems.push(`${at}.networks.${fixed.name}.ipv4_address: ${replicaCount} replicas cannot share one fixed address`);
  if (svc.depends_on != null) {
    options.dependsOn = isMapping(svc.depends_on)
      ? Object.entries(svc.depends_on).map(([service, v]) => {
          const long = isMapping(v) ? v : {};
          return {
            service,
            condition: (long.condition || 'service_started') as DependsOnCondition,
            ...(long.required === false ? { required: false } : {}),
            ...(long.restart === true ? { restart: true } : {}),
          };
        })
      : list(svc.depends_on).map((service) => ({ service, condition: 'service_started' as const }));
    for (const d of options.dependsOn) {
      // With `required: false` a dependency that is not there is skipped, as compose does.
      if (!(d.service in model.services) && d.required !== false)
        problems.push(`${at}.depends_on: "${d.service}" is not a service of this file (or not in an active profile)`);
    }
  }
  const replicas = isMapping(svc.deploy) ? svc.deploy.replicas : svc.scale;
  if (typeof replicas === 'number' && replicas !== 1) options.replicas = replicas;
  const files = [
    ...filesOf(at, 'secrets', svc.secrets, model, (n) => `/run/secrets/${n}`, problems),
    ...filesOf(at, 'configs', svc.configs, model, (n) => `/${n}`, problems),
  ];
  if (files.length) options.files = files;
  // Files are written into the container's filesystem before it starts, which a read-only one refuses.
  if ((svc.secrets != null || svc.configs != null) && svc.read_only === true)
    problems.push(`${at}.read_only: a read-only service cannot be given secrets or configs here`);
  const external = externalVolumes(svc, model);
  if (external.length) {
    options.externalVolumes = external;
    // `external: true` with `name:` is the engine's volume of that name, not of the compose name.
    const named = external.filter((n) => typeof (model.volumes[n] as Mapping).name === 'string');
    if (named.length) options.volumeNames = Object.fromEntries(named.map((n) => [n, str((model.volumes[n] as Mapping).name)]));
  }
  for (const [volume, def] of Object.entries(model.volumes)) {
    if (isMapping(def) && def.driver != null && def.driver !== 'local')
      warnings.push(`volumes.${volume}.driver "${str(def.driver)}" is ignored: the engine's local driver is used`);
  }
  if (Object.keys(config).length || Object.keys(host).length) options.engine = { config, hostConfig: host };
  return { options, warnings, problems, ...(build ? { build } : {}) };
}

/** A directory is checked against the repo here, a git repository when it is fetched (image-builds.ts). */
function buildOf(at: string, value: unknown, model: ComposeModel, problems: string[]): BuildSpec | undefined {
  const spec = isMapping(value) ? value : { context: value };
  const context = contextOf(value);
  const git = gitContext(context);
  if (!git && isRemoteContext(context)) {
    problems.push(
      `${at}.build.context: "${contextLabel(context)}" is a remote context that is not a git repository (a tarball or a Dockerfile by URL), which is not fetched: give a git URL (https://host/repo.git#ref:dir) or a directory of the template repo`,
    );
    return undefined;
  }
  if (!git && !model.directory) return undefined;
  for (const key of Object.keys(spec)) {
    if (!['context', 'dockerfile', 'args', 'target', 'labels'].includes(key))
      problems.push(`${at}.build.${key}: is not supported here (context, dockerfile, args and target are)`);
  }
  const dockerfile = str(spec.dockerfile ?? 'Dockerfile');
  let found: { path?: string } = {};
  if (!git) {
    const local = buildContext(model.directory!, context, dockerfile);
    if ('problem' in local) {
      problems.push(`${at}.build.context: ${local.problem}`);
      return undefined;
    }
    found = local;
  }
  // A listed arg without `=` takes its value from the request's environment, as compose takes it from the shell's.
  const args = isMapping(spec.args)
    ? Object.fromEntries(Object.entries(spec.args).map(([k, v]) => [k, v == null ? (model.environment[k] ?? '') : str(v)]))
    : Object.fromEntries(
        (Array.isArray(spec.args) ? spec.args.map(String) : []).map((item) => {
          const eq = item.indexOf('=');
          return eq < 0 ? [item, model.environment[item] ?? ''] : [item.slice(0, eq), item.slice(eq + 1)];
        }),
      );
  return {
    context: contextLabel(context),
    ...(found.path ? { contextDir: found.path } : {}),
    ...(git ? { git } : {}),
    dockerfile: dockerfile.split('\\').join('/'),
    args,
    ...(spec.target != null ? { target: str(spec.target) } : {}),
  };
}

/** HostConfig.Tmpfs from the `tmpfs:` key and from `volumes` of `type: tmpfs`. */
function tmpfsOf(at: string, svc: Mapping, problems: string[]): Record<string, string> {
  const mounts: Record<string, string> = {};
  const entries = Array.isArray(svc.tmpfs) ? svc.tmpfs.map(str) : svc.tmpfs != null ? [str(svc.tmpfs)] : [];
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    mounts[colon < 0 ? entry : entry.slice(0, colon)] = colon < 0 ? '' : entry.slice(colon + 1);
  }
  (Array.isArray(svc.volumes) ? svc.volumes : []).forEach((volume, i) => {
    if (!isMapping(volume) || volume.type !== 'tmpfs') return;
    const where = `${at}.volumes[${i}]`;
    if (typeof volume.target !== 'string' || !volume.target.startsWith('/')) {
      problems.push(`${where}.target: a tmpfs needs an absolute container path`);
      return;
    }
    if (volume.source != null) problems.push(`${where}.source: a tmpfs has no source`);
    const options = isMapping(volume.tmpfs) ? volume.tmpfs : {};
    const mode =
      options.mode == null ? null : typeof options.mode === 'number' ? options.mode.toString(8) : str(options.mode).replace(/^0o/, '');
    if (mode !== null && !/^[0-7]{1,4}$/.test(mode)) problems.push(`${where}.tmpfs.mode: "${str(options.mode)}" is not an octal file mode`);
    mounts[volume.target] = [
      ...(options.size != null ? [`size=${bytes(options.size, `${where}.tmpfs.size`, problems)}`] : []),
      ...(mode !== null ? [`mode=${mode}`] : []),
      ...(volume.read_only === true ? ['ro'] : []),
    ].join(',');
  });
  return mounts;
}

function filesOf(
  at: string,
  key: 'secrets' | 'configs',
  value: unknown,
  model: ComposeModel,
  defaultTarget: (name: string) => string,
  problems: string[],
): NonNullable<ServiceOptions['files']> {
  if (value == null) return [];
  const declared = model[key];
  return (value as unknown[]).flatMap((item) => {
    const ref = isMapping(item) ? item : { source: str(item) };
    const source = str(ref.source);
    const def = declared[source];
    if (!isMapping(def)) {
      problems.push(`${at}.${key}: "${source}" is not declared under the top-level ${key}`);
      return [];
    }
    let content: string | undefined;
    let unreadable: string | undefined;
    if (typeof def.content === 'string') content = def.content;
    else if (typeof def.environment === 'string') content = model.environment[def.environment];
    else if (def.file != null && model.directory) {
      const read = readInside(model.directory, str(def.file));
      if ('problem' in read) unreadable = `file ${read.problem}`;
      else content = read.text;
    }
    if (content === undefined) {
      const what =
        unreadable !== undefined
          ? unreadable
          : def.file != null
            ? `file "${str(def.file)}" cannot be read: ${NO_DIRECTORY}`
            : def.external
              ? 'external secrets and configs live in a swarm, not on one engine'
              : def.environment != null
                ? `the variable ${str(def.environment)} is not in the request's environment`
                : 'it has no content';
      problems.push(
        `${key}.${source}: ${what}; give ${key === 'secrets' ? "it from environment: (a variable of the request's environment)" : 'its content inline (content:)'}`,
      );
      return [];
    }
    const target =
      typeof ref.target === 'string'
        ? ref.target.startsWith('/')
          ? ref.target
          : `${key === 'secrets' ? '/run/secrets/' : '/'}${ref.target}`
        : defaultTarget(source);
    return [{ target, content, ...(ref.mode != null ? { mode: Number(ref.mode) } : {}) }];
  });
}

function externalVolumes(svc: Mapping, model: ComposeModel): string[] {
  const names = (Array.isArray(svc.volumes) ? svc.volumes : []).map((v) =>
    typeof v === 'string' ? v.split(':')[0] : isMapping(v) ? str(v.source ?? '') : '',
  );
  return names.filter((n) => volumeSourceKind(n) === 'named' && isMapping(model.volumes[n]) && Boolean(model.volumes[n].external));
}

/** As written; `.` when a mapping names none. */
function contextOf(build: unknown): string {
  return str(isMapping(build) ? (build.context ?? '.') : build);
}

/** Objects as JSON, never "[object Object]". */
function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' && value !== null ? JSON.stringify(value) : `${value as string}`;
}

/** `1m30s`, `10s`, `500ms`, or a number of seconds → nanoseconds. */
function duration(value: unknown, at: string, problems: string[]): number {
  if (typeof value === 'number') return value * NS;
  const units: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: NS, m: 60 * NS, h: 3600 * NS };
  let total = 0;
  const text = str(value).trim();
  const re = /(\d+(?:\.\d+)?)(ns|us|ms|s|m|h)/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = re.exec(text))) {
    total += Number(match[1]) * units[match[2]];
    consumed = re.lastIndex;
  }
  if (consumed !== text.length || text === '') problems.push(`${at}: "${text}" is not a duration`);
  return Math.round(total);
}

/** `64m`, `1gb`, `512k`, or a number of bytes. */
function bytes(value: unknown, at: string, problems: string[]): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)\s*([bkmg]?)b?$/i.exec(str(value).trim());
  if (!match) {
    problems.push(`${at}: "${str(value)}" is not a size`);
    return 0;
  }
  const factor = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2].toLowerCase()] ?? 1;
  return Math.round(Number(match[1]) * factor);
}
