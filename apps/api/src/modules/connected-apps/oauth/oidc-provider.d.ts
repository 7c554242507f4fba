// oidc-provider ships no type declarations: these are the parts the authorization server uses
// (docs/connected-apps.md, "Authorization server"), written from the library's lib/ sources.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AdapterPayload = Record<string, unknown> & { grantId?: string; uid?: string; consumed?: unknown; jti?: string };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  /** The library's configuration object (lib/helpers/defaults.js): checked by the library at construction. */
  export type Configuration = Record<string, unknown>;

  export interface ClientInstance {
    readonly clientId: string;
    readonly clientName?: string;
    grantTypeAllowed(type: string): boolean;
  }

  export interface GrantInstance {
    jti: string;
    accountId?: string;
    clientId?: string;
    exp?: number;
    openid?: { scope?: string };
    resources?: Record<string, string>;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    getResourceScopeEncountered(resource: string): string;
    save(ttl?: number): Promise<string>;
    destroy(): Promise<void>;
  }

  export interface AccessTokenInstance {
    jti: string;
    accountId: string;
    clientId: string;
    grantId: string;
    scope?: string;
    aud?: string | string[];
    jkt?: string;
    exp: number;
    iat: number;
    gty?: string;
    readonly isValid: boolean;
    readonly isExpired: boolean;
    save(): Promise<string>;
    destroy(): Promise<void>;
    setThumbprint(prop: 'jkt', input: unknown): void;
  }

  export interface InteractionInstance {
    jti: string;
    uid: string;
    exp: number;
    returnTo: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    result?: Record<string, unknown>;
    grantId?: string;
    save(ttl: number): Promise<string>;
  }

  export interface KoaContextWithOIDC {
    oidc: {
      route?: string;
      client?: ClientInstance;
      entities: { Grant?: GrantInstance; RefreshToken?: { exp: number }; Client?: ClientInstance };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
    type: string;
    body: unknown;
    status: number;
  }

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'opaque' | 'jwt';
  }

  export class OIDCProviderError extends Error {
    status: number;
    statusCode: number;
    error: string;
    error_description?: string;
    expose: boolean;
    constructor(status: number, message: string);
  }

  export const errors: {
    InvalidGrant: new (description?: string) => OIDCProviderError;
    InvalidTarget: new (description?: string) => OIDCProviderError;
    AccessDenied: new (description?: string) => OIDCProviderError;
    SessionNotFound: new (description?: string) => OIDCProviderError;
  };

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionInstance>;
    /** Koa's: a context over a raw request, to read the provider's signed cookies. */
    createContext(req: IncomingMessage, res: ServerResponse): { cookies: { get(name: string, options?: { signed?: boolean }): string | undefined } };
    cookieName(type: 'session' | 'interaction' | 'resume'): string;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    readonly Grant: {
      new (properties: { accountId: string; clientId: string; expiresIn?: number }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
    readonly AccessToken: {
      new (properties: Record<string, unknown>): AccessTokenInstance;
      find(value: string, options?: { ignoreExpiration?: boolean }): Promise<AccessTokenInstance | undefined>;
    };
    readonly Interaction: { find(id: string): Promise<InteractionInstance | undefined> };
    readonly Client: { find(id: string): Promise<ClientInstance | undefined> };
  }
}
