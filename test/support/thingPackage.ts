// A small package for upload tests: one template, `<module>.Thing` (owner: Party, size: Numeric 4).
import { lfPayload, packageIdOfPayload, T } from '../../fake-ledger/src/lfEncode';
import { dar } from './darBuilder';

/** The package `name` 1.0.0 with module `module`: its payload, its id and a DAR holding it. */
export function thingPackage(name: string, module: string): { payload: Buffer; id: string; dar: Buffer } {
  const payload = Buffer.from(
    lfPayload({
      name,
      version: '1.0.0',
      modules: [
        {
          name: module,
          templates: [
            {
              name: 'Thing',
              fields: [
                ['owner', T.party],
                ['size', T.numeric(4)],
              ],
            },
          ],
        },
      ],
    }),
  );
  return { payload, id: packageIdOfPayload(payload), dar: dar({ name: `${name}-1.0.0`, payload }) };
}
