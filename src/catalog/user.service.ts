import type { EntityManager } from '@mikro-orm/postgresql';
import type { Identity } from '../auth/token.service';
import { ValidationError } from '../errors';
import { classifyRepoName } from './repo-source';
import { TemplateRepo } from './template-repo.entity';
import { UserProfile } from './user-profile.entity';

export interface TemplateRepoProvider {
  id: number;
  name: string;
}

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
  /** The server has GITHUB_TOKEN. */
  githubAccessTokenPresent: boolean;
}

export interface UserUpdate {
  email?: string | null;
  githubAccessToken?: string | null;
}

// Loose on purpose: the address is only written into commits; it must just look like one.
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class UserService {
  constructor(
    private readonly em: EntityManager,
    private readonly githubBaseUrl: string,
    private readonly localRoots: readonly string[] = [],
    private readonly githubTokenConfigured = false,
  ) {}

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
    const profile = await this.em.findOne(UserProfile, { username: identity.username });
    return {
      username: identity.username,
      email: profile?.email ?? identity.email,
      repos: writable.map((repo) => repo.name),
      templateRepoProviders: TEMPLATE_REPO_PROVIDERS,
      githubAccessTokenPresent: this.githubTokenConfigured,
    };
  }

  /** A GitHub token is the server's, shared by every user: one sent here is refused, not silently dropped. */
  async update(identity: Identity, input: UserUpdate): Promise<UserInfo> {
    if (input.githubAccessToken) {
      throw new ValidationError('github_access_token is not stored per user: the server saves to GitHub with its GITHUB_TOKEN', [
        'github_access_token',
      ]);
    }
    if (input.email !== undefined) {
      const email = input.email?.trim() || null;
      if (email !== null && !EMAIL.test(email)) throw new ValidationError('email is not an e-mail address', ['email']);
      const profile = await this.em.findOne(UserProfile, { username: identity.username });
      if (profile) profile.email = email;
      else this.em.create(UserProfile, { username: identity.username, email });
      await this.em.flush();
    }
    return this.me(identity);
  }
}
