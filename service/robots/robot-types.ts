// The shape every robot implementation has: one input file in, zero or more result files out.

import type { AssetStore } from '../assets/asset-store';
import type { AddressPolicy, LookupFunction } from '../notifications/notify-address';
import type { Scope } from '../instructions/interpolation';
import type { ChatConfig } from './chat-endpoint';
import type { StoredFile } from './file-record';

/** The stored assets robots keep files in and import them from, and the workspace they belong to. */
export interface AssetAccess {
  store: AssetStore;
  workspace: string;
}

/** Template credentials (name or id) → their type and content; null when there are none by that name. */
/** Template credentials by name or id; `content` is any JSON value (the spec), so robots check its shape. */
export type CredentialLookup = (nameOrId: string) => { name: string; type: string; content: unknown } | null;

/** What /ai/chat needs from the service: the operator's endpoint, its own domains and a token minter. */
export interface ChatAccess {
  config: ChatConfig;
  /** Hosts (with their subdomains) that count as the service's own for `auth: "service"` (robots/tool-server-auth.ts). */
  ownDomains: readonly string[];
  /** Rules of the hosts tool servers may be on (robots/tool-server-hosts.ts); empty = none. */
  toolServerHosts: readonly string[];
  /** A short-lived Bearer token for the Assembly's Auth Key (auth/step-token.ts); null when the key is gone. */
  mintToken(): string | null;
}

/** Where robots that fetch from URLs (/http/import) may connect: the service's outgoing-address policy. */
export interface NetworkAccess {
  policy: AddressPolicy;
  /** How names are resolved (default dns.lookup); tests give names the addresses they need. */
  lookup?: LookupFunction;
}

export interface RobotJob {
  step: string;
  robot: string;
  /** The step's parameters, interpolated for this file (except /file/filter conditions). */
  params: Record<string, unknown>;
  input: StoredFile;
  /** Assembly variables for this file, for robots that resolve `${…}` themselves. */
  scope: Scope;
  /** A directory for this step's output files; it exists. */
  outDir: string;
  signal: AbortSignal;
  /** For storage robots that take `credentials` by name. */
  credentials: CredentialLookup;
  /** For /transloadit/store and /transloadit/import (absent where the service has no asset store). */
  assets?: AssetAccess;
  /** For /ai/chat (absent in bare tests: the robot then says it is not configured). */
  chat?: ChatAccess;
  /** For /http/import (absent in bare tests: loopback and public addresses only). */
  network?: NetworkAccess;
  /** How far this job is, 0..1, for robots that know (ffmpeg's encoded time); feeds `assembly_execution_progress`. */
  onProgress?(fraction: number): void;
}

export type RobotFileOutcome =
  /** `note`: why this input gave no file although nothing failed (a filter declined it); a notice at the file. */
  | { ok: true; files: StoredFile[]; note?: string }
  /** `unsuitableInput`: the robot cannot handle this kind of file; the step skips it unless no input fits. */
  | { ok: false; code: string; message: string; unsuitableInput?: boolean };

export type RobotRunner = (job: RobotJob) => Promise<RobotFileOutcome>;

/** A robot that makes one output from many inputs (e.g. an archive). */
export interface BundleJob extends Omit<RobotJob, 'input'> {
  /** The files, each with the step it came from. */
  inputs: { file: StoredFile; fromStep: string }[];
}

export type BundleRunner = (job: BundleJob) => Promise<RobotFileOutcome>;

/** A robot that takes no input and brings files into the Assembly (an import); `scope` has no `file`. */
export type SourceRunner = (job: Omit<RobotJob, 'input'>) => Promise<RobotFileOutcome>;
