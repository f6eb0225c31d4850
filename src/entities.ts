import { App, AppCategory, Service, ServiceLink, SharedVolume } from './apps/app.entity';
import { ApiToken } from './auth/api-token.entity';
import { ConsoleSession } from './auth/console-session.entity';
import { SubscriptionTicket } from './auth/subscription-ticket.entity';
import { Registry } from './catalog/registry.entity';
import { TemplateRepo } from './catalog/template-repo.entity';
import { UserProfile } from './catalog/user-profile.entity';
import { Template, TemplateImage } from './catalog/template.entity';
import { DeploymentTarget } from './targets/deployment-target.entity';
import { AppAutomation, DeployHook, DeployHookCall } from './hooks/hook.entity';
import { DomainEvent, EventDelivery, EventSubscription, TargetHealth } from './outbound/outbound.entity';
import { ApiTokenUse, AuditEvent, AuditPrune } from './audit/audit-event.entity';
import { Revision } from './history/revision.entity';

/** Every entity of the main service. */
export const entities = [
  ApiToken,
  SubscriptionTicket,
  ConsoleSession,
  Registry,
  TemplateRepo,
  Template,
  TemplateImage,
  App,
  AppCategory,
  Service,
  ServiceLink,
  SharedVolume,
  DeploymentTarget,
  UserProfile,
  DeployHook,
  DeployHookCall,
  AppAutomation,
  DomainEvent,
  EventSubscription,
  EventDelivery,
  TargetHealth,
  AuditEvent,
  AuditPrune,
  ApiTokenUse,
  Revision,
];
