// The partner app's package: on the node, not vetted here, and with no source in any workspace —
// the package a developer writes commands against knowing only what the node says of it. A real
// Daml-LF 2 package, so its id is the hash of its payload; its types use every form the Canton
// Network's packages do (records, variants, enums, type parameters, Numeric n, ContractId T,
// Optional, lists, TextMap and Map, an interface with a view, choices with and without arguments).
import { keepDescription, lfArchive, lfPayload, packageIdOfPayload, T, type PackageDesc } from './lfEncode';

const TOKEN = 'Partner.Token';
export const PARTNER_PACKAGE_NAME = 'canton-lens-partner-app';

export const PARTNER_PACKAGE_DESC: PackageDesc = {
  name: PARTNER_PACKAGE_NAME,
  version: '1.0.0',
  modules: [
    {
      name: 'Partner.Types',
      enums: [{ name: 'TransferKind', values: ['Direct', 'Escrow', 'Burn'] }],
      records: [
        {
          name: 'Meta',
          params: ['a'],
          fields: [
            ['values', T.textMap(T.text)],
            ['extra', T.optional(T.v('a'))],
          ],
        },
        {
          name: 'Netting',
          fields: [
            ['window', T.int],
            ['counterparties', T.list(T.party)],
          ],
        },
      ],
      variants: [
        {
          name: 'Settlement',
          constructors: [
            ['Immediate', T.unit],
            ['Deferred', T.date],
            ['Netted', T.con('Partner.Types:Netting')],
          ],
        },
      ],
    },
    {
      name: TOKEN,
      records: [
        {
          name: 'HoldingView',
          fields: [
            ['owner', T.party],
            ['amount', T.numeric(10)],
            ['instrument', T.text],
          ],
        },
      ],
      interfaces: [
        {
          name: 'Holding',
          view: T.con(`${TOKEN}:HoldingView`),
          choices: [
            { name: 'Holding_Lock', fields: [['until', T.time]], returns: T.cid(T.con(`${TOKEN}:Holding`)) },
            { name: 'Holding_Describe', consuming: false, returns: T.text },
          ],
        },
      ],
      templates: [
        {
          name: 'Token',
          fields: [
            ['issuer', T.party],
            ['owner', T.party],
            ['amount', T.numeric(10)],
            ['decimals', T.int],
            ['tags', T.list(T.text)],
            ['meta', T.con('Partner.Types:Meta', T.text)],
            ['locks', T.genMap(T.party, T.date)],
            ['kind', T.con('Partner.Types:TransferKind')],
            ['settlement', T.con('Partner.Types:Settlement')],
            ['previous', T.optional(T.cid(T.con(`${TOKEN}:Token`)))],
            ['active', T.bool],
          ],
          key: T.party,
          implements: [`${TOKEN}:Holding`],
          choices: [
            {
              name: 'Transfer',
              fields: [
                ['newOwner', T.party],
                ['amount', T.numeric(10)],
                ['kind', T.con('Partner.Types:TransferKind')],
              ],
              returns: T.cid(T.con(`${TOKEN}:Token`)),
            },
            { name: 'Token_Split', fields: [['amounts', T.list(T.numeric(10))]], returns: T.list(T.cid(T.con(`${TOKEN}:Token`))) },
            { name: 'Token_Peek', consuming: false, returns: T.numeric(10) },
          ],
        },
        {
          // A second template behind Holding: the interface table shows both. Its view fails when
          // the lock has no end (the adversarial view the table must show as failed).
          name: 'LockedToken',
          fields: [
            ['owner', T.party],
            ['locker', T.party],
            ['amount', T.numeric(10)],
            ['instrument', T.text],
            ['lockedUntil', T.optional(T.time)],
          ],
          implements: [`${TOKEN}:Holding`],
          choices: [{ name: 'LockedToken_Unlock', returns: T.cid(T.con(`${TOKEN}:Token`)) }],
        },
        {
          name: 'TransferOffer',
          fields: [
            ['sender', T.party],
            ['receiver', T.party],
            ['token', T.cid(T.con(`${TOKEN}:Token`))],
            ['memo', T.optional(T.text)],
            ['settlement', T.con('Partner.Types:Settlement')],
          ],
          choices: [
            { name: 'Accept', returns: T.cid(T.con(`${TOKEN}:Token`)) },
            { name: 'Reject', fields: [['reason', T.text]], returns: T.unit },
          ],
        },
      ],
    },
  ],
};

/** The partner package's ArchivePayload, what `GET /v2/packages/{package-id}` answers. */
export const PARTNER_PAYLOAD = lfPayload(PARTNER_PACKAGE_DESC);
export const PARTNER_PACKAGE = packageIdOfPayload(PARTNER_PAYLOAD);
keepDescription(PARTNER_PACKAGE);
/** Its DALF, as a DAR holds it. */
export const partnerDalf = () => lfArchive(PARTNER_PAYLOAD);
