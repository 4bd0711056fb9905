// The .vsix passes what Open VSX checks on publishing (VSCodium, Cursor, Gitpod and other editors
// install from open-vsx.org), and its README reads right on both marketplaces.
//
// `ovsx publish` has no dry run and needs the network: it checks the manifest and the licence, packages
// with vsce's createVSIX (the packaging this test does too, so vsce's own checks run here as well),
// then uploads; the registry checks the rest. Each rule below names the public source it comes from:
// - OVSX-CLI: github.com/eclipse/openvsx, cli/src/publish.ts, cli/src/check-license.ts, cli/src/util.ts (validateManifest)
// - OVSX-VALIDATOR: github.com/eclipse/openvsx, server/src/main/java/org/eclipse/openvsx/ExtensionValidator.java
// - OVSX-PUBLISH: the same repository, server/src/main/java/org/eclipse/openvsx/publish/PublishExtensionVersionHandler.java,
//   ExtensionProcessor.java, ExtensionService.java (MAX_CONTENT_SIZE), util/SemanticVersion.java and VersionAlias.java
// - OVSX-SCAN: the same repository, server/src/main/resources/scanning/secret-detection-custom-rules.yaml (gitleaks rules)
// - OVSX-WIKI: github.com/eclipse/openvsx/wiki/Publishing-Extensions and /wiki/Namespace-Access
// - VSCE: github.com/microsoft/vscode-vsce, src/package.ts (image rules, TrustedSVGSources, the icon)
// - VSCODE-MANIFEST: code.visualstudio.com/api/references/extension-manifest (icon size, engines)
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { packagedVsix } from '../support/packagedVsix';

/** One file of the .vsix, as bytes. */
function entry(vsix: string, name: string): Buffer {
  // unzip reads the name as a pattern: its wildcard characters are escaped.
  return execFileSync('unzip', ['-p', vsix, name.replace(/[[\]*?\\]/g, '\\$&')], { maxBuffer: 64 * 1024 * 1024 });
}

/** An XML text or attribute value, unescaped. */
function xmlText(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

// VSCE (TrustedSVGSources, isGitHubBadge): the only hosts an SVG image may come from.
const TRUSTED_SVG_HOSTS = [
  'api.travis-ci.com',
  'app.fossa.io',
  'badge.buildkite.com',
  'badge.fury.io',
  'badgen.net',
  'badges.frapsoft.com',
  'badges.gitter.im',
  'cdn.travis-ci.com',
  'ci.appveyor.com',
  'circleci.com',
  'cla.opensource.microsoft.com',
  'codacy.com',
  'codeclimate.com',
  'codecov.io',
  'coveralls.io',
  'david-dm.org',
  'deepscan.io',
  'dev.azure.com',
  'docs.rs',
  'flat.badgen.net',
  'gitlab.com',
  'godoc.org',
  'goreportcard.com',
  'img.shields.io',
  'isitmaintained.com',
  'marketplace.visualstudio.com',
  'nodesecurity.io',
  'opencollective.com',
  'snyk.io',
  'travis-ci.com',
  'visualstudio.com',
  'vsmarketplacebadges.dev',
];
const isGitHubBadge = (href: string) => /^https:\/\/github\.com\/[^/]+\/[^/]+\/(actions\/)?workflows\/.*badge\.svg/.test(href);

// OVSX-VALIDATOR (checkCharacters): control, format, unassigned, private-use and separator characters are refused.
const BAD_CHARACTER = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Zl}\p{Zp}]/u;

describe('the .vsix on Open VSX', function () {
  this.timeout(180_000);
  let vsix = '';
  let entries: string[] = [];
  let manifest: Record<string, unknown> & {
    publisher: string;
    name: string;
    version: string;
    engines: Record<string, string>;
    license?: string;
    icon?: string;
  };
  let vsixManifest = '';
  const property = (id: string) => {
    const m = new RegExp(`<Property Id="${id.replace(/\./g, '\\.')}" Value="([^"]*)"`).exec(vsixManifest);
    return m ? xmlText(m[1]) : undefined;
  };
  const asset = (type: string) => new RegExp(`<Asset Type="${type.replace(/\./g, '\\.')}" Path="([^"]+)"`).exec(vsixManifest)?.[1];

  before(async () => {
    vsix = await packagedVsix();
    entries = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).split('\n').filter(Boolean);
    manifest = JSON.parse(entry(vsix, 'extension/package.json').toString('utf8')) as typeof manifest;
    vsixManifest = entry(vsix, 'extension.vsixmanifest').toString('utf8');
  });

  it('names a valid namespace (publisher), extension name and semantic version', () => {
    // OVSX-CLI validateManifest: publisher, name and version are required.
    // OVSX-VALIDATOR validateNamespace / validateExtensionName; OVSX-WIKI Namespace-Access: [\w\-\+\$~]+, at most 255.
    for (const [field, value] of [
      ['publisher', manifest.publisher],
      ['name', manifest.name],
    ] as const) {
      assert.match(value, /^[\w\-+$~]+$/, `${field} "${value}" is not a valid Open VSX name`);
      assert.ok(value.length <= 255, `${field} is longer than 255 characters`);
    }
    // OVSX-PUBLISH (SemanticVersion.VERSION_PARSE_PATTERN, VersionAlias): semver 2.0, and not a reserved alias.
    assert.match(
      manifest.version,
      /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/,
    );
    assert.ok(!['latest', 'pre-release', 'preview', 'reviews'].includes(manifest.version));
    // The identity the registry reads is the vsixmanifest's (ExtensionProcessor.getVersion, getNamespace).
    assert.match(
      vsixManifest,
      new RegExp(`<Identity [^>]*Id="${manifest.name}" Version="${manifest.version.replace(/\./g, '\\.')}" Publisher="${manifest.publisher}"`),
    );
  });

  it('is licensed: a licence identifier and the licence file in the package', () => {
    // OVSX-CLI check-license (a `license` field or a LICENSE file, else ovsx refuses or offers MIT);
    // OVSX-PUBLISH validateLicense (open-vsx.org requires a licence: "has no license" is refused);
    // OVSX-WIKI Publishing-Extensions. ExtensionProcessor.getLicense reads the vsixmanifest's licence asset.
    assert.ok(typeof manifest.license === 'string' && manifest.license.length > 0 && manifest.license.length <= 255 && !BAD_CHARACTER.test(manifest.license));
    const licence = asset('Microsoft.VisualStudio.Services.Content.License');
    assert.ok(licence && entries.includes(licence), `the licence asset ${licence ?? '(none)'} is not in the package`);
    assert.match(entry(vsix, licence).toString('utf8'), /Apache License/);
    assert.equal(manifest.license, 'Apache-2.0');
  });

  it('has metadata the registry accepts: lengths, characters, URLs, banner', () => {
    // OVSX-VALIDATOR validateMetadata, on what ExtensionProcessor.getMetadata reads (the vsixmanifest,
    // where vsce has put package.nls.json's strings in place of %keys%).
    const displayName = xmlText(/<DisplayName>([^<]*)<\/DisplayName>/.exec(vsixManifest)?.[1] ?? '');
    const description = xmlText(/<Description xml:space="preserve">([^<]*)<\/Description>/.exec(vsixManifest)?.[1] ?? '');
    assert.ok(displayName.length > 0 && displayName.length <= 255 && !BAD_CHARACTER.test(displayName), `displayName "${displayName}"`);
    assert.ok(description.length > 0 && description.length <= 2048 && !BAD_CHARACTER.test(description.replace(/\u200d/g, '')), `description "${description}"`);
    assert.doesNotMatch(`${displayName} ${description}`, /%[\w.]+%/, 'a %key% was not localized into the vsixmanifest');
    for (const list of ['Tags', 'Categories']) {
      const values = xmlText(new RegExp(`<${list}>([^<]*)</${list}>`).exec(vsixManifest)?.[1] ?? '')
        .split(',')
        .filter(Boolean);
      assert.ok(values.length > 0, `no ${list}`);
      for (const v of values) assert.ok(v.length <= 255 && !BAD_CHARACTER.test(v), `${list}: "${v}"`);
    }
    // checkURL: repository, bugs and homepage must be URLs with a host (a git+ prefix allowed), at most 255.
    for (const id of [
      'Microsoft.VisualStudio.Services.Links.Source',
      'Microsoft.VisualStudio.Services.Links.Support',
      'Microsoft.VisualStudio.Services.Links.Learn',
    ]) {
      const url = property(id);
      assert.ok(url, `${id} is missing`);
      assert.ok(url.length <= 255);
      assert.match(new URL(url.replace(/^git\+/, '')).protocol, /^https:$/, `${id}: ${url}`);
      assert.ok(new URL(url.replace(/^git\+/, '')).host.length > 0);
    }
    // galleryBanner: a colour of at most 16 characters, the theme dark or light.
    assert.ok((property('Microsoft.VisualStudio.Services.Branding.Color') ?? '').length <= 16);
    assert.ok(['dark', 'light', undefined].includes(property('Microsoft.VisualStudio.Services.Branding.Theme')));
    // markdown: github or standard; qna: marketplace, false or a URL (absent here: both defaults).
    assert.ok(manifest.markdown === undefined || ['github', 'standard'].includes(manifest.markdown as string));
    assert.ok(
      manifest.qna === undefined ||
        manifest.qna === 'marketplace' ||
        manifest.qna === false ||
        (typeof manifest.qna === 'string' && manifest.qna.startsWith('https://')),
    );
  });

  it('states the VS Code engine it needs, as a version range', () => {
    // VSCODE-MANIFEST: engines.vscode is required and cannot be "*"; Open VSX stores it
    // (ExtensionProcessor.getEngines) and editors built on VS Code use it to pick a compatible version.
    const engine = manifest.engines.vscode;
    assert.ok(engine && engine !== '*', `engines.vscode is "${engine}"`);
    assert.match(engine, /^\^?\d+\.\d+\.\d+$/);
    assert.equal(property('Microsoft.VisualStudio.Code.Engine'), engine);
  });

  it('has a PNG icon of at least 128×128 in the package', () => {
    // VSCE: "SVGs can't be used as icons"; VSCODE-MANIFEST: at least 128x128 pixels;
    // OVSX-PUBLISH (ExtensionProcessor.getIcon): the icon named by the manifest must be in the package.
    assert.ok(manifest.icon && /\.png$/i.test(manifest.icon), `icon "${manifest.icon}"`);
    const icon = asset('Microsoft.VisualStudio.Services.Icons.Default');
    assert.equal(icon, `extension/${manifest.icon}`);
    const png = entry(vsix, icon);
    assert.ok(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'the icon is not a PNG file');
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    assert.ok(width >= 128 && height >= 128, `the icon is ${width}x${height}`);
  });

  it('ships a README and CHANGELOG whose images are HTTPS, no SVG but badges from trusted hosts, and whose links work off GitHub', () => {
    // OVSX-PUBLISH (ExtensionProcessor.getReadme, getChangelog): the details and changelog assets are shown on open-vsx.org.
    for (const [type, name] of [
      ['Microsoft.VisualStudio.Services.Content.Details', 'README'],
      ['Microsoft.VisualStudio.Services.Content.Changelog', 'CHANGELOG'],
    ] as const) {
      const file = asset(type);
      assert.ok(file && entries.includes(file), `no ${name} in the package`);
      const text = entry(vsix, file).toString('utf8');
      // VSCE (the README/CHANGELOG processors): images need a source, come from https, and an SVG
      // only from a trusted badge host; no <svg> tags and no SVG data URLs.
      const images = [...text.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)/g), ...text.matchAll(/<img\b[^>]*\bsrc=["']([^"']*)["']/gi)].map((m) => m[1]);
      if (name === 'README') assert.ok(images.length >= 5, `only ${images.length} images found in the README: the pattern misses them`);
      for (const src of images) {
        const url = new URL(decodeURI(src));
        assert.equal(url.protocol, 'https:', `${name}: image ${src} is not HTTPS`);
        if (/\.svg$/i.test(url.pathname))
          assert.ok(TRUSTED_SVG_HOSTS.includes(url.host.toLowerCase()) || isGitHubBadge(url.href), `${name}: SVG image from ${url.host}`);
      }
      assert.doesNotMatch(text, /<svg\b/i, `${name}: an <svg> tag`);
      assert.doesNotMatch(text, /data:image\/svg/i, `${name}: an SVG data URL`);
      // Open VSX renders the packaged file on its own site: a relative link would point into
      // open-vsx.org. vsce rewrites them to the repository (OVSX-CLI passes baseContentUrl through).
      const links = [...text.matchAll(/(?<!!)\[[^\]]*\]\(\s*<?([^)\s>]+)/g)].map((m) => m[1]);
      assert.deepEqual(
        links.filter((l) => !/^(https:\/\/|mailto:|#)/.test(l)),
        [],
        `${name}: links that only work inside the repository`,
      );
      // A link to a heading of the same page must land on both sites: GitHub and the VS Code
      // Marketplace drop punctuation from a heading's id; open-vsx.org renders with markdown-it-anchor's
      // default slug (OVSX: webui/src/components/sanitized-markdown.tsx), which keeps it percent-encoded.
      const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
        m[1]
          .replace(/`|\*\*|\[([^\]]*)\]\([^)]*\)/g, '$1')
          .trim()
          .toLowerCase(),
      );
      const gitHubIds = new Set(headings.map((h) => h.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')));
      const openVsxIds = new Set(headings.map((h) => encodeURIComponent(h.replace(/\s+/g, '-'))));
      for (const anchor of links.filter((l) => l.startsWith('#')).map((l) => l.slice(1))) {
        assert.ok(
          gitHubIds.has(anchor) && openVsxIds.has(anchor),
          `${name}: #${anchor} is not the id of a heading on both GitHub/the Marketplace and Open VSX`,
        );
      }
    }
  });

  it('says in its README where each kind of editor installs it from', () => {
    const readme = entry(vsix, asset('Microsoft.VisualStudio.Services.Content.Details')!).toString('utf8');
    assert.match(readme, /Visual Studio\s+Marketplace/);
    assert.match(readme, /Open\s+VSX/);
  });

  it("is far below the registry's size limit and holds no secret a scanner would flag", () => {
    // OVSX-PUBLISH (ExtensionService.MAX_CONTENT_SIZE): 512 MB by default.
    assert.ok(fs.statSync(vsix).size < 512 * 1024 * 1024);
    // OVSX-SCAN: open-vsx.org scans published files with gitleaks' rules; the fake node's demo tokens
    // are signed at run time, never shipped as literals. The jwt and private-key rules, as gitleaks has them.
    const jwt = /\b(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/\\_-]{17,}\.(?:[a-zA-Z0-9/\\_-]{10,}={0,2})?)(?:['"\n\r\s`;]|$)/;
    const privateKey = /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/;
    const found: string[] = [];
    for (const name of entries.filter((e) => !/\.(png|jpe?g|gif|ico|svg)$/i.test(e))) {
      const text = entry(vsix, name).toString('utf8');
      if (jwt.test(text)) found.push(`${name}: a JWT`);
      if (privateKey.test(text)) found.push(`${name}: a private key`);
    }
    assert.deepEqual(found, []);
  });
});
