import { ApiToken } from '../auth/api-token.entity';
import { Registry } from '../catalog/registry.entity';
import { TemplateRepo } from '../catalog/template-repo.entity';
import { Template, TemplateImage } from '../catalog/template.entity';

/** Every entity of the main service. */
export const entities = [ApiToken, Registry, TemplateRepo, Template, TemplateImage];
