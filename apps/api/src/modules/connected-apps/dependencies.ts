import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { StepUpDependencies } from '../step-up/service.ts';
import type { AuthorizationServer } from './oauth/server.ts';

/** What the connected apps' routes are given (app.ts builds it once; the FDX resource API shares the authorization server). */
export interface ConnectedAppsDependencies {
  db: Database;
  config: Config;
  clock: Clock;
  stepUp: StepUpDependencies;
  liveEvents: LiveEvents;
  authorizationServer: AuthorizationServer;
}
