// Development signing keys: the private key only in SecretStorage (never on disk, in settings,
// logs, globalState or a webview); the public key and fingerprint in globalState, to list them
// and to verify signatures before sending. For development ledgers only.
import * as vscode from 'vscode';
import { generateDevKey, publicKeyOf } from '../execute/signingKeys';

export interface DevKeyInfo {
  fingerprint: string;
  /** SPKI DER, base64. */
  publicKey: string;
  /** Raw 32 bytes, base64. */
  publicKeyRaw: string;
  createdAt: string;
}

const LIST = 'cantonLens.devSigningKeys';
const secretKey = (fingerprint: string) => `cantonLens.devSigningKey.${fingerprint}`;

export class DevSigningKeys {
  /**
   * Keys generated in this window, in memory as SecretStorage keeps them: signing right after
   * generating never depends on the secret store having caught up (a web workbench's store is
   * asynchronous). Never written anywhere else.
   */
  private readonly generatedHere = new Map<string, string>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  list(): DevKeyInfo[] {
    return this.state.get<DevKeyInfo[]>(LIST, []);
  }

  publicKey(fingerprint: string): string | undefined {
    return this.list().find((k) => k.fingerprint === fingerprint)?.publicKey;
  }

  async generate(): Promise<DevKeyInfo> {
    const k = generateDevKey();
    await this.secrets.store(secretKey(k.fingerprint), k.privateKey);
    this.generatedHere.set(k.fingerprint, k.privateKey);
    const info: DevKeyInfo = { fingerprint: k.fingerprint, publicKey: k.publicKey, publicKeyRaw: k.publicKeyRaw, createdAt: new Date().toISOString() };
    await this.state.update(LIST, [...this.list(), info]);
    return info;
  }

  /** The private key, or undefined when it is missing or was deleted (then the key is dropped from the list). */
  async privateKey(fingerprint: string): Promise<string | undefined> {
    const secret = this.generatedHere.get(fingerprint) ?? (await this.secrets.get(secretKey(fingerprint)));
    if (!secret || publicKeyOf(secret) !== this.publicKey(fingerprint)) {
      await this.state.update(
        LIST,
        this.list().filter((k) => k.fingerprint !== fingerprint),
      );
      return undefined;
    }
    return secret;
  }

  async delete(fingerprint: string): Promise<void> {
    this.generatedHere.delete(fingerprint);
    await this.secrets.delete(secretKey(fingerprint));
    await this.state.update(
      LIST,
      this.list().filter((k) => k.fingerprint !== fingerprint),
    );
  }
}
