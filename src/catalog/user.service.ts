import type { EntityManager } from '@mikro-orm/postgresql';
import type { Identity } from '../auth/token.service';
import { classifyRepoName } from './repo-source';
import { TemplateRepo } from './template-repo.entity';

export interface TemplateRepoProvider {
  id: number;
  name: string;
}

/** The kinds of template source this service reads and saves to. */
export const TEMPLATE_REPO_PROVIDERS: TemplateRepoProvider[] = [
  { id: 1, name: 'git' },
  { id: 2, name: 'GitHub' },
  { id: 3, name: 'Local directory' },
];

export interface UserInfo {
  username: string;
  email: string | null;
  repos: string[];
  templateRepoProviders: TemplateRepoProvider[];
}

export class UserService {
  constructor(
    private readonly em: EntityManager,
    private readonly githubBaseUrl: string,
    private readonly localRoots: readonly string[] = [],
  ) {}

  /** The caller, and the template repos a template can be saved to (every repo we know). */
  async me(identity: Identity): Promise<UserInfo> {
    const repos = await this.em.find(TemplateRepo, {}, { orderBy: { id: 'asc' }, fields: ['name'] });
    const writable = repos.filter((repo) => {
      try {
        classifyRepoName(repo.name, { githubBaseUrl: this.githubBaseUrl, localRoots: this.localRoots });
        return true;
      } catch {
        return false;
      }
    });
    return {
      username: identity.username,
      email: identity.email,
      repos: writable.map((repo) => repo.name),
      templateRepoProviders: TEMPLATE_REPO_PROVIDERS,
    };
  }
}
