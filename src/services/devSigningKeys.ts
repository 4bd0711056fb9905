// Development signing keys: the private key only in SecretStorage (never on disk, in settings,
// logs, globalState or a webview); the public key and fingerprint in globalState, to list them
// and to verify signatures before sending. For development ledgers only.
import type * as vscode from 'vscode';
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
   * Keys generated in this window, as SecretStorage and globalState keep them: signing right after
   * generating never depends on either store having caught up. A web workbench's secret store is
   * asynchronous, and globalState takes in its stores' change events, so an older value of the
   * list can come back just after an update (a key then looked missing and was dropped; seen in
   * about one tier-2 run in three on a loaded machine). Never written anywhere else.
   */
  private readonly generatedHere = new Map<string, { privateKey: string; info: DevKeyInfo }>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  list(): DevKeyInfo[] {
    const stored = this.state.get<DevKeyInfo[]>(LIST, []);
    const fresh = [...this.generatedHere.values()].map((g) => g.info).filter((i) => !stored.some((k) => k.fingerprint === i.fingerprint));
    return [...stored, ...fresh];
  }

  publicKey(fingerprint: string): string | undefined {
    return this.list().find((k) => k.fingerprint === fingerprint)?.publicKey;
  }

  async generate(): Promise<DevKeyInfo> {
    const k = generateDevKey();
    const info: DevKeyInfo = { fingerprint: k.fingerprint, publicKey: k.publicKey, publicKeyRaw: k.publicKeyRaw, createdAt: new Date().toISOString() };
    this.generatedHere.set(k.fingerprint, { privateKey: k.privateKey, info });
    await this.secrets.store(secretKey(k.fingerprint), k.privateKey);
    await this.state.update(LIST, this.list());
    return info;
  }

  /** The private key, or undefined when it is missing or was deleted (then the key is dropped from the list). */
  async privateKey(fingerprint: string): Promise<string | undefined> {
    const here = this.generatedHere.get(fingerprint);
    if (here) return here.privateKey;
    const secret = await this.secrets.get(secretKey(fingerprint));
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
