// What Validate DAR / Upload DAR offer before a file dialog: the workspace's built DARs with name,
// version and project (the current build of each project first), and where "Browse…" opens.
import * as assert from 'node:assert/strict';
import { browseFolder, builtDars } from '../../../src/daml/builtDars';
import { parseDamlYaml } from '../../../src/daml/damlProject';

const model = parseDamlYaml('name: canton-lens-demo-model\nversion: 1.1.0\n', '/ws/daml-model');
const holding = parseDamlYaml('name: canton-lens-demo-holding\nversion: 1.0.0\n', '/ws/daml-holding');
const unnamed = parseDamlYaml('sdk-version: 3.4.0\n', '/ws/scratch');

describe('built DARs', () => {
  it("lists each project's DARs by name and version, its current build first, newest earlier build next, DARs of no project last", () => {
    const dars = builtDars(
      [model, holding],
      [
        '/ws/daml-model/.daml/dist/canton-lens-demo-model-1.0.0.dar',
        '/ws/vendor/other-lib-2.3.4.dar',
        '/ws/daml-model/.daml/dist/canton-lens-demo-model-1.1.0.dar',
        '/ws/daml-holding/.daml/dist/canton-lens-demo-holding-1.0.0.dar',
        '/ws/daml-model/.daml/dist/canton-lens-demo-model-1.10.0.dar',
        '/ws/daml-model/.daml/dist/canton-lens-demo-model-1.1.0.dar',
      ],
    );
    assert.deepEqual(
      dars.map((d) => [d.name, d.version, d.project?.root, d.current]),
      [
        ['canton-lens-demo-holding', '1.0.0', '/ws/daml-holding', true],
        ['canton-lens-demo-model', '1.1.0', '/ws/daml-model', true],
        ['canton-lens-demo-model', '1.10.0', '/ws/daml-model', false],
        ['canton-lens-demo-model', '1.0.0', '/ws/daml-model', false],
        ['other-lib', '2.3.4', undefined, false],
      ],
    );
  });

  it('reads a name with dashes and digits against the project, and a Windows path as the same file', () => {
    const p = parseDamlYaml('name: app-2-core\nversion: 0.1.0-rc1\n', 'C:/ws/app');
    const dars = builtDars([p], ['C:\\ws\\app\\.daml\\dist\\app-2-core-0.1.0-rc1.dar', 'C:/ws/app/.daml/dist/app-2-core-0.1.0-rc1.dar']);
    assert.deepEqual(
      dars.map((d) => [d.path, d.name, d.version, d.current]),
      [['C:/ws/app/.daml/dist/app-2-core-0.1.0-rc1.dar', 'app-2-core', '0.1.0-rc1', true]],
    );
    assert.deepEqual(
      builtDars([], ['/x/notes.dar']).map((d) => [d.name, d.version]),
      [['notes', '']],
    );
  });

  it("opens Browse… at the .daml/dist of the editor's project, else the only project's, else a built one's", () => {
    const dars = builtDars([model, holding], ['/ws/daml-holding/.daml/dist/canton-lens-demo-holding-1.0.0.dar']);
    assert.equal(browseFolder([model, holding], dars, '/ws/daml-model/daml/Iou.daml'), '/ws/daml-model/.daml/dist');
    assert.equal(browseFolder([model, holding], dars, '/ws/daml-model/daml.yaml'), '/ws/daml-model/.daml/dist', "the project's daml.yaml counts as in it");
    assert.equal(browseFolder([model], [], '/elsewhere/x.json'), '/ws/daml-model/.daml/dist');
    assert.equal(browseFolder([model, holding], dars, undefined), '/ws/daml-holding/.daml/dist');
    assert.equal(browseFolder([unnamed, model], [], undefined), '/ws/scratch');
    assert.equal(browseFolder([], [], '/ws/a.daml'), undefined);
  });
});
