import type { EntityManager } from '@mikro-orm/postgresql';

export interface ComponentVersions {
  versions: Record<string, string>;
}

export interface PlatformMetadata {
  api: ComponentVersions;
  ui: ComponentVersions;
  agent: ComponentVersions;
}

/** No UI ships with this service, so platform-ui lists none. */
export class PlatformService {
  constructor(
    private readonly em: EntityManager,
    private readonly version: string,
  ) {}

  async metadata(): Promise<PlatformMetadata> {
    return {
      api: { versions: { [this.version]: `node ${process.version}` } },
      ui: { versions: {} },
      agent: { versions: await this.agentVersions() },
    };
  }

  private async agentVersions(): Promise<Record<string, string>> {
    const [{ exists }] = await this.em.getConnection().execute(`select to_regclass('deployment_targets') is not null as exists`);
    if (!exists) return {};
    const rows: { version: string; targets: string }[] = await this.em.getConnection().execute(`
      select agent_version as version, string_agg(name, ', ' order by id) as targets
        from deployment_targets where agent_version is not null group by agent_version order by agent_version`);
    return Object.fromEntries(rows.map((row) => [row.version, row.targets]));
  }
}
