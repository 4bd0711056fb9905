/// <reference lib="dom" />
// What every page shares: the webview API (acquired once: VS Code allows one call per page), the
// strings the extension localized into the page, messages in, each checked by the page's protocol
// module before it is handled, and the page's own small state.
import { fillPlaceholders } from '../../l10n/l10n';

export interface WebviewApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): WebviewApi;

/** The page's one webview API (a stand-in outside a webview). */
export const api: WebviewApi = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage() {}, getState: () => undefined, setState() {} };

/** A page's way out: only its protocol's messages. */
export const poster =
  <FromPage>() =>
  (message: FromPage): void =>
    api.postMessage(message);

/** Messages in: what `parse` does not accept is dropped (a page trusts no sender blindly). */
export function onMessages<ToPage>(parse: (raw: unknown) => ToPage | undefined, handle: (message: ToPage) => void): void {
  window.addEventListener('message', (event: MessageEvent) => {
    const message = parse(event.data);
    if (message) handle(message);
  });
}

// One object for all the page keeps: each part writes its own keys, none drops another's.
const saved = api.getState();
const kept: Record<string, unknown> = typeof saved === 'object' && saved !== null ? { ...(saved as Record<string, unknown>) } : {};

/**
 * What the person set on the page (search, sort, filters, scroll), kept by VS Code for the page: it
 * comes back if the page is loaded again. Small on purpose: rows are never kept here.
 */
export function pageState<T extends object>(defaults: T): { state: T; save: () => void } {
  for (const [key, value] of Object.entries(defaults)) if (!(key in kept)) kept[key] = value;
  return { state: kept as T, save: () => api.setState(kept) };
}

/** What the page kept before it was (re)loaded, and keeps since. */
export const keptState = (): Readonly<Record<string, unknown>> => kept;

/** Keeps `part` (its keys replace theirs) with the rest of the page's state. */
export function saveState(part: Record<string, unknown>): void {
  Object.assign(kept, part);
  api.setState(kept);
}

// Localized by the extension (pageStrings, acsPageStrings, updatesPageStrings); English when absent.
const strings = JSON.parse(document.getElementById('page-strings')?.getAttribute('data-strings') ?? '{}') as Record<string, string>;
export const say = (key: string, english: string, ...args: (string | number)[]): string => fillPlaceholders(strings[key] ?? english, args);

// One formatter: toLocaleString makes a new one each call, and every row painted formats numbers.
const numbers = new Intl.NumberFormat('en-US');
export const num = (n: number): string => numbers.format(n);

/** An element the page's shell always has. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e as T;
}

/** Calls `run` once input has paused for `ms`. */
export function debounce(ms: number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
}

/**
 * `run` at most once each `ms` (or as long as it says), however often it is asked for: what a stream
 * of messages changes is shown at a pace people can read, not in every frame. A timer, not an
 * animation frame: a hidden page gets no frames, and what `run` keeps bounded must stay so.
 */
export function throttle(ms: number | (() => number), run: () => void): () => void {
  let pending = false;
  let ranAt = -Infinity;
  const go = () => {
    pending = false;
    ranAt = performance.now();
    run();
  };
  return () => {
    if (pending) return;
    pending = true;
    setTimeout(go, Math.max(0, ranAt + (typeof ms === 'number' ? ms : ms()) - performance.now()));
  };
}

/** Buttons made from the extension's message: their labels are text. */
export function buttons(into: HTMLElement, list: readonly { action: string; label: string; offset?: number }[]): void {
  for (const b of list) {
    const button = document.createElement('button');
    button.dataset.action = b.action;
    if (b.offset !== undefined) button.dataset.offset = String(b.offset);
    button.textContent = b.label;
    into.append(' ', button);
  }
}
