// Renders the sample workspace's photos: simple construction scenes drawn as SVG and encoded
// as camera-like JPEGs (with capture time, GPS and camera EXIF), so a fresh install has real
// images to browse without shipping binaries. The only sharp use outside media/images.ts: it
// only draws; every photo then goes through the upload pipeline like any other.
import sharp from 'sharp';

export type SampleScene = 'frame' | 'crane' | 'roof' | 'interior' | 'bridge' | 'facade';

interface SamplePhotoSpec {
  scene: SampleScene;
  /** Big label on the photo (the project's name). */
  title: string;
  /** Smaller line under it (what the photo shows). */
  caption: string;
  /** Sky/light colour hue (0–360), so photos of one project look alike. */
  hue: number;
  /** Varies the picture (mirrored or not, clouds), so two photos of one scene differ. */
  variant: number;
  /** When the "camera" took it. */
  capturedAt: Date;
  latitude: number;
  longitude: number;
}

const SAMPLE_PHOTO_WIDTH = 1600;
const SAMPLE_PHOTO_HEIGHT = 1200;

const W = SAMPLE_PHOTO_WIDTH;
const H = SAMPLE_PHOTO_HEIGHT;
const GROUND = 900;

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function frame(): string {
  const cols = range(7).map(
    (i) =>
      `<rect x="${260 + i * 180}" y="380" width="34" height="${GROUND - 380}" fill="#9e9e9e"/>`,
  );
  const slabs = range(4).map(
    (i) => `<rect x="230" y="${380 + i * 130}" width="1150" height="26" fill="#bdbdbd"/>`,
  );
  const rebar = range(24).map(
    (i) =>
      `<line x1="${250 + i * 48}" y1="380" x2="${250 + i * 48}" y2="300" stroke="#6d4c41" stroke-width="5"/>`,
  );
  const formwork = `<rect x="230" y="760" width="1150" height="140" fill="#c8a165" opacity="0.9"/>`;
  return [...cols, ...slabs, ...rebar, formwork].join('');
}

function crane(): string {
  const mast = range(14).map(
    (i) =>
      `<path d="M 1060 ${GROUND - i * 50} L 1110 ${GROUND - (i + 1) * 50} M 1110 ${GROUND - i * 50} L 1060 ${GROUND - (i + 1) * 50}" stroke="#f9a825" stroke-width="5"/>`,
  );
  return [
    `<rect x="1055" y="200" width="60" height="${GROUND - 200}" fill="none" stroke="#f9a825" stroke-width="10"/>`,
    ...mast,
    `<rect x="300" y="170" width="1120" height="34" fill="#f9a825"/>`,
    `<rect x="1230" y="204" width="140" height="80" fill="#757575"/>`,
    `<rect x="1040" y="120" width="90" height="60" fill="#fbc02d"/>`,
    `<line x1="520" y1="204" x2="520" y2="560" stroke="#424242" stroke-width="4"/>`,
    `<rect x="470" y="560" width="100" height="60" fill="#8d6e63"/>`,
    `<rect x="180" y="600" width="620" height="${GROUND - 600}" fill="#a1887f"/>`,
    ...range(3).flatMap((r) =>
      range(5).map(
        (c) =>
          `<rect x="${220 + c * 115}" y="${630 + r * 85}" width="70" height="50" fill="#455a64"/>`,
      ),
    ),
  ].join('');
}

function roof(): string {
  const tiles = range(12).map(
    (i) =>
      `<line x1="${300 + i * 40}" y1="${640 - i * 30}" x2="${1300 - i * 40}" y2="${640 - i * 30}" stroke="#8d3b2b" stroke-width="6"/>`,
  );
  const rafters = range(16).map(
    (i) =>
      `<line x1="${320 + i * 62}" y1="640" x2="800" y2="270" stroke="#a1887f" stroke-width="6"/>`,
  );
  return [
    `<rect x="300" y="640" width="1000" height="${GROUND - 640}" fill="#d7ccc8"/>`,
    `<polygon points="260,650 800,260 1340,650" fill="#b5533c"/>`,
    ...rafters,
    ...tiles,
    `<rect x="720" y="740" width="160" height="${GROUND - 740}" fill="#5d4037"/>`,
    // Scaffold along the eaves.
    ...range(9).map(
      (i) =>
        `<line x1="${280 + i * 130}" y1="600" x2="${280 + i * 130}" y2="${GROUND}" stroke="#607d8b" stroke-width="8"/>`,
    ),
    `<line x1="270" y1="620" x2="1330" y2="620" stroke="#607d8b" stroke-width="8"/>`,
  ].join('');
}

function interior(): string {
  const studs = range(20).map(
    (i) =>
      `<rect x="${120 + i * 70}" y="260" width="14" height="560" fill="#cfd8dc" stroke="#90a4ae"/>`,
  );
  const ceiling = range(10).map(
    (i) =>
      `<line x1="0" y1="${60 + i * 20}" x2="${W}" y2="${60 + i * 20}" stroke="#eceff1" stroke-width="4"/>`,
  );
  const ducts = `<rect x="100" y="200" width="1400" height="44" rx="20" fill="#b0bec5"/>`;
  const cables = range(4).map(
    (i) =>
      `<path d="M 80 ${280 + i * 18} C 600 ${330 + i * 18}, 1000 ${230 + i * 18}, 1520 ${300 + i * 18}" stroke="${['#e53935', '#1e88e5', '#fdd835', '#43a047'][i]}" stroke-width="6" fill="none"/>`,
  );
  const boards = `<rect x="120" y="260" width="420" height="560" fill="#eeeeee" opacity="0.95"/>`;
  return [
    `<rect x="0" y="0" width="${W}" height="${GROUND}" fill="#78909c"/>`,
    ...ceiling,
    ducts,
    ...studs,
    boards,
    ...cables,
    `<rect x="0" y="820" width="${W}" height="${H - 820}" fill="#8d8d8d"/>`,
  ].join('');
}

function bridge(): string {
  const piers = range(4).map(
    (i) =>
      `<rect x="${200 + i * 380}" y="560" width="70" height="${GROUND - 560}" fill="#9e9e9e"/>`,
  );
  const rails = range(40).map(
    (i) =>
      `<line x1="${i * 42}" y1="470" x2="${i * 42}" y2="520" stroke="#616161" stroke-width="4"/>`,
  );
  return [
    `<rect x="0" y="${GROUND - 40}" width="${W}" height="${H - GROUND + 40}" fill="#4f7f8f"/>`,
    ...piers,
    `<rect x="0" y="520" width="${W}" height="60" fill="#757575"/>`,
    `<rect x="0" y="500" width="${W}" height="24" fill="#263238"/>`,
    `<rect x="0" y="468" width="${W}" height="6" fill="#616161"/>`,
    ...rails,
    // Membrane strips and a paver.
    `<rect x="300" y="503" width="520" height="18" fill="#1565c0" opacity="0.8"/>`,
    `<rect x="1000" y="400" width="220" height="100" rx="12" fill="#f57c00"/>`,
    `<circle cx="1040" cy="500" r="22" fill="#212121"/><circle cx="1180" cy="500" r="22" fill="#212121"/>`,
  ].join('');
}

function facade(): string {
  const windows = range(5).flatMap((r) =>
    range(8).map(
      (c) =>
        `<rect x="${260 + c * 140}" y="${250 + r * 125}" width="80" height="80" fill="#37474f"/>`,
    ),
  );
  const insulation = `<rect x="860" y="220" width="560" height="${GROUND - 220}" fill="#fafafa" opacity="0.85"/>`;
  const scaffold = [
    ...range(10).map(
      (i) =>
        `<line x1="${220 + i * 130}" y1="200" x2="${220 + i * 130}" y2="${GROUND}" stroke="#546e7a" stroke-width="9"/>`,
    ),
    ...range(6).map(
      (i) =>
        `<line x1="200" y1="${230 + i * 125}" x2="1420" y2="${230 + i * 125}" stroke="#546e7a" stroke-width="9"/>`,
    ),
  ];
  return [
    `<rect x="220" y="200" width="1200" height="${GROUND - 200}" fill="#c7a27c"/>`,
    ...windows,
    insulation,
    ...scaffold,
    `<rect x="200" y="${GROUND - 30}" width="1240" height="30" fill="#ff7043"/>`,
  ].join('');
}

const SCENES: Record<SampleScene, () => string> = {
  frame,
  crane,
  roof,
  interior,
  bridge,
  facade,
};

function svg(spec: SamplePhotoSpec): string {
  const sky = `hsl(${spec.hue}, 55%, 72%)`;
  const skyLow = `hsl(${(spec.hue + 30) % 360}, 45%, 88%)`;
  const mirrored = spec.variant % 2 === 1;
  const clouds = range(3)
    .map((i) => {
      const x = ((spec.variant * 397 + i * 541) % (W + 200)) - 100;
      const y = 60 + ((spec.variant * 53 + i * 97) % 160);
      return `<ellipse cx="${x}" cy="${y}" rx="${110 + i * 30}" ry="${34 + i * 6}" fill="#fff" opacity="0.7"/>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${sky}"/><stop offset="1" stop-color="${skyLow}"/>
    </linearGradient>
    <linearGradient id="ground" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#8d7b68"/><stop offset="1" stop-color="#5d4e3f"/>
    </linearGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#sky)"/>
  ${clouds}
  <rect y="${GROUND}" width="${W}" height="${H - GROUND}" fill="url(#ground)"/>
  <g transform="${mirrored ? `translate(${W} 0) scale(-1 1)` : ''}">${SCENES[spec.scene]()}</g>
  <rect x="40" y="${H - 190}" width="${W - 80}" height="150" rx="16" fill="#000" opacity="0.55"/>
  <text x="80" y="${H - 118}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="54" font-weight="bold" fill="#fff">${escapeXml(spec.title)}</text>
  <text x="80" y="${H - 64}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="36" fill="#ffcc80">${escapeXml(spec.caption)}</text>
</svg>`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** EXIF rational degrees/minutes/seconds ("48/1 8/1 1464/100"). */
function dms(value: number): string {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutesFull = (abs - degrees) * 60;
  const minutes = Math.floor(minutesFull);
  const centiSeconds = Math.round((minutesFull - minutes) * 60 * 100);
  return `${degrees}/1 ${minutes}/1 ${centiSeconds}/100`;
}

/** A 1600×1200 JPEG of the scene, with capture time (UTC), GPS and camera in its EXIF. */
export async function renderSamplePhoto(spec: SamplePhotoSpec): Promise<Buffer> {
  const t = spec.capturedAt;
  const exifDate = `${t.getUTCFullYear()}:${two(t.getUTCMonth() + 1)}:${two(t.getUTCDate())} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())}`;
  return sharp(Buffer.from(svg(spec)))
    .jpeg({ quality: 85, mozjpeg: false })
    .withExif({
      IFD0: { Make: 'Sitelog', Model: 'Sample photo' },
      IFD2: { DateTimeOriginal: exifDate, OffsetTimeOriginal: '+00:00' },
      IFD3: {
        GPSLatitudeRef: spec.latitude < 0 ? 'S' : 'N',
        GPSLatitude: dms(spec.latitude),
        GPSLongitudeRef: spec.longitude < 0 ? 'W' : 'E',
        GPSLongitude: dms(spec.longitude),
      },
    })
    .toBuffer();
}
