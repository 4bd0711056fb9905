// What the Active Contracts panel says about a read (its title, what it reads as, in words) and what
// it counts of it as pages arrive: the contracts sent, the first ids, the templates, the payload
// filter's leavings, and a sample of arguments for the filter's completion. No `vscode` import.
import * as l10n from '../l10n/l10n';
import type { CreatedEvent } from '../ledger/apiTypes';
import { splitTemplateId } from './acsGrouping';
import type { AcsPage } from './acsPaging';
import { asSeenBy } from './browseForms';
import { passesFilter } from './changeView';
import { VIEW_FAILED } from '../protocol/acsRows';
import { formatCount } from '../l10n/forPeople';

const isFailedView = (a: unknown) => typeof a === 'object' && a !== null && Object.hasOwn(a, VIEW_FAILED);

export interface AcsTarget {
  node: string;
  /** Read as these parties; none: as lookups read (the configured parties, else the token's rights). */
  parties?: string[];
  templateId?: string;
  interfaceId?: string;
  /** The set as it was at this offset (default: the ledger end). */
  activeAtOffset?: number;
}

/** Rows are kept only when their create argument passes it (applied as pages arrive). */
export interface PayloadFilter {
  text: string;
  test: (argument: unknown) => boolean;
}

const offset = (n: number) => formatCount(n);

export function acsTitle(t: AcsTarget): string {
  const what = t.templateId ? splitTemplateId(t.templateId).entity : t.interfaceId ? splitTemplateId(t.interfaceId).entity : '';
  const title = what ? l10n.t('Active {0} on {1}', what, t.node) : l10n.t('Active Contracts on {0}', t.node);
  return t.activeAtOffset !== undefined ? l10n.t('{0} at offset {1}', title, offset(t.activeAtOffset)) : title;
}

/** What the table reads, as whom (undefined: not known yet), at which offset, through which filter. */
export function acsScope(t: AcsTarget, parties: readonly string[] | undefined, filter: PayloadFilter | undefined): string {
  const what = t.templateId ? l10n.t('template {0}', t.templateId) : t.interfaceId ? l10n.t('interface {0}', t.interfaceId) : l10n.t('every template');
  const through = filter ? l10n.t(', payload filter: {0}', filter.text) : '';
  const at = t.activeAtOffset !== undefined ? l10n.t(', as it was at offset {0}', offset(t.activeAtOffset)) : '';
  return `${what}, ${asSeenBy(parties)}${at}${through}`;
}

/** What a read sent to the table so far (tests read it; the first ids feed the agent tools). */
export interface AcsShown {
  contracts: number;
  firstIds: string[];
  templates: Set<string>;
  activeAtOffset: number | undefined;
  notice: string;
  error: string;
  done: boolean;
  pages: number;
  /** The parties the last read asked as (empty: any party). */
  parties: readonly string[] | undefined;
  /** Contracts read and left out by the payload filter. */
  filteredOut: number;
  /** Where the read is: a test that times out says which step never ended. */
  step: 'waiting for the page' | 'reading rights' | 'reading contracts' | 'done' | 'failed' | 'cancelled';
  /** Read by interface: the view's fields shown as columns (once known), and the rows whose view failed. */
  viewColumns: string[] | undefined;
  failedViews: number;
}

const FIRST_IDS = 20;
const TEMPLATES = 100;
const SAMPLE = 200;

export class AcsTally {
  readonly shown: AcsShown = {
    contracts: 0,
    firstIds: [],
    templates: new Set(),
    activeAtOffset: undefined,
    notice: '',
    error: '',
    done: false,
    pages: 0,
    parties: undefined,
    filteredOut: 0,
    step: 'waiting for the page',
    viewColumns: undefined,
    failedViews: 0,
  };
  /** Create arguments of the first rows read: the payload filter's completion offers their fields. */
  sample: unknown[] = [];

  /** A new read (the parties asked as stay until it learns them again). */
  start(): void {
    Object.assign(this.shown, { activeAtOffset: undefined, notice: '', error: '', done: false, pages: 0, viewColumns: undefined, step: 'reading rights' });
    this.restart();
  }

  /** The contracts of one page to send: those the filter keeps, counted. */
  page(page: AcsPage, filter: PayloadFilter | undefined): CreatedEvent[] {
    if (page.restarted) this.restart();
    const shown = this.shown;
    if (this.sample.length < SAMPLE) this.sample.push(...page.events.slice(0, SAMPLE - this.sample.length).map((e) => e.createArgument));
    const events = filter ? page.events.filter((e) => passesFilter(filter.test, e.createArgument)) : page.events;
    shown.filteredOut += page.events.length - events.length;
    shown.contracts += events.length;
    for (const e of events) {
      if (shown.firstIds.length < FIRST_IDS) shown.firstIds.push(e.contractId);
      if (shown.templates.size < TEMPLATES) shown.templates.add(String(e.templateId));
      if (isFailedView(e.createArgument)) shown.failedViews++;
    }
    shown.activeAtOffset = page.activeAtOffset;
    shown.pages++;
    shown.step = 'reading contracts';
    if (page.notice) shown.notice = page.notice;
    return events;
  }

  private restart(): void {
    Object.assign(this.shown, { contracts: 0, firstIds: [], templates: new Set<string>(), filteredOut: 0, failedViews: 0 });
    this.sample = [];
  }
}
