// The feature descriptor of GET /v2/version in words a person reads, with what each one means.
import type { FeaturesDescriptor } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';
import { formatCount } from '../l10n/forPeople';

export interface FeatureRow {
  label: string;
  value: string;
  tooltip: string;
}

type Duration = { seconds?: number; nanos?: number };

/** A protobuf Duration as "1.5 s", "250 ms", "2 min". */
export function formatDuration(d: Duration | undefined): string {
  if (!d) return l10n.t('not set');
  const ms = (d.seconds ?? 0) * 1000 + (d.nanos ?? 0) / 1e6;
  if (ms < 1000) return `${Number(ms.toFixed(3))} ms`;
  if (ms < 120_000) return `${Number((ms / 1000).toFixed(3))} s`;
  return `${Number((ms / 60_000).toFixed(2))} min`;
}

const supported = (v: { supported?: boolean } | undefined) => (v?.supported ? l10n.t('supported') : l10n.t('not supported'));
const count = (n: number | undefined) => (typeof n === 'number' ? formatCount(n) : l10n.t('not reported'));

export function featureRows(f: Partial<FeaturesDescriptor> | undefined): FeatureRow[] {
  const x = f?.experimental;
  return [
    {
      label: l10n.t('Static time (experimental)'),
      value: supported(x?.staticTime),
      tooltip: l10n.t('Whether the ledger runs on static time, set by tests, instead of wall-clock time. For ledger testing only.'),
    },
    {
      label: l10n.t('Command inspection (experimental)'),
      value: supported(x?.commandInspectionService),
      tooltip: l10n.t('Whether the participant lets you inspect the state of submitted commands.'),
    },
    {
      label: l10n.t('User management'),
      value: supported(f?.userManagement),
      tooltip: l10n.t('Whether the node manages Ledger API users and their rights (CanActAs, CanReadAs…).'),
    },
    { label: l10n.t('Max rights per user'), value: count(f?.userManagement?.maxRightsPerUser), tooltip: l10n.t('The most rights one user can be granted.') },
    { label: l10n.t('Max users page size'), value: count(f?.userManagement?.maxUsersPageSize), tooltip: l10n.t('The most users one ListUsers page returns.') },
    {
      label: l10n.t('Max parties page size'),
      value: count(f?.partyManagement?.maxPartiesPageSize),
      tooltip: l10n.t('The most parties one ListKnownParties page returns.'),
    },
    {
      label: l10n.t('Offset checkpoint max delay'),
      value: formatDuration(f?.offsetCheckpoint?.maxOffsetCheckpointEmissionDelay),
      tooltip: l10n.t("The longest a stream goes without an offset checkpoint: how stale an idle stream's offset can be."),
    },
    {
      label: l10n.t('Max vetted packages page size'),
      value: count(f?.packageFeature?.maxVettedPackagesPageSize),
      tooltip: l10n.t('The most vetted packages one ListVettedPackages page returns.'),
    },
  ];
}
