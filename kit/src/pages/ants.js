// Ants battle: the map before the battle on a canvas, dead ants marked,
// the weakness picture on a toggle, an ant's enemies and fate on click.
const R = DATA.rows, C = DATA.cols, N = DATA.radius2;
const OWNER = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45", "#9a6324", "#000075"];
const LAND = [214, 200, 164], WATER = [96, 96, 96], FOOD = [255, 255, 255];
const map = DATA.map, alphabet = DATA.alphabet, width = DATA.width, codes = DATA.codes;
const digit = new Int32Array(128).fill(0);
for (let i = 0; i < alphabet.length; i++) digit[alphabet.charCodeAt(i)] = i;
// fateOf[cell]: index into DATA.fates, or -1 where no ant stands.
const fateOf = new Int32Array(R * C).fill(-1);
let ant = 0, dead = 0, ants = 0;
for (let cell = 0; cell < R * C; cell++) {
  const ch = map.charCodeAt(cell);
  if ((ch >= 97 && ch <= 106) || (ch >= 65 && ch <= 74)) {
    let code = 0;
    for (let k = 0; k < width; k++) code = code * alphabet.length + digit[codes.charCodeAt(ant * width + k)];
    fateOf[cell] = code;
    ant++;
    ants++;
    if (DATA.fates[code][1]) dead++;
  }
}
function ownerOf(ch) {
  if (ch >= 97 && ch <= 106) return ch - 97;
  if (ch >= 65 && ch <= 74) return ch - 65;
  if (ch >= 48 && ch <= 57) return ch - 48;
  return -1;
}
function rgb(hex) { return [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16)); }
const OWNER_RGB = OWNER.map(rgb);
// Two pictures, one pixel per cell: the battle (owners, dead ants dark) and the weakness.
function picture(weakness) {
  const canvas = document.createElement("canvas");
  canvas.width = C; canvas.height = R;
  const ctx = canvas.getContext("2d");
  const img = ctx.createImageData(C, R), px = img.data;
  for (let cell = 0, o = 0; cell < R * C; cell++, o += 4) {
    const ch = map.charCodeAt(cell);
    let c = LAND;
    const f = fateOf[cell];
    if (ch === 37) c = WATER;
    else if (ch === 42) c = FOOD;
    else if (f >= 0) {
      const fate = DATA.fates[f];
      if (weakness) {
        const w = fate[0] === "+" ? 10 : +fate[0];
        c = [255, Math.round(235 - 20 * w), Math.round(200 - 20 * w)];
        if (w === 0) c = [120, 200, 120];
      } else {
        c = OWNER_RGB[ownerOf(ch)];
        if (fate[1]) c = c.map(v => v * 0.35);
      }
    } else if (ch >= 48 && ch <= 57) c = OWNER_RGB[ch - 48].map(v => 255 - (255 - v) * 0.5);
    if (weakness && f < 0 && ch !== 37) c = [c[0] * 0.5 + 60, c[1] * 0.5 + 60, c[2] * 0.5 + 60];
    px[o] = c[0]; px[o + 1] = c[1]; px[o + 2] = c[2]; px[o + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
  return canvas;
}
const pictures = { battle: picture(false), weakness: null };
let mode = "battle";

const app = document.getElementById("app");
app.append(el("div", "about", "One attack phase of Ants (ants_battle --explain): the map before the battle, " +
  "each ant in its player's colour; an ant that dies in this battle is dark. The weakness of an ant is the number " +
  "of enemy ants in its attack range (squared distance at most attackradius2), counted per offset."));
const bar = el("div", "bar");
const toggle = el("button", "", "weakness picture"); toggle.id = "toggle";
const zoomIn = el("button", "", "+"), zoomOut = el("button", "", "−"), fit = el("button", "", "fit");
const legend = el("span", "legend");
for (let p = 0; p < DATA.players; p++) {
  const s = el("span"); const i = el("i"); i.style.background = OWNER[p]; s.append(i, "player " + p + " (" + String.fromCharCode(97 + p) + ")"); legend.append(s);
}
const key = el("span", "", "");
legend.append(key);
function keyText() {
  key.textContent = mode === "battle" ? "dark, crossed: dies · grey: water · white: food · pale: hill · ringed: ant on its hill"
    : "weakness: green 0, pale to deep red 1..10+ (digits when zoomed in) · framed: dies";
}
keyText();
bar.append(toggle, zoomIn, zoomOut, fit, legend);
const wrap = el("div", "ants");
const canvas = el("canvas"); canvas.id = "map";
const info = el("div", "info"); info.id = "info";
info.textContent = "Click an ant (or hover with Shift held) to see its enemies and its fate. Drag to pan, wheel or +/− to zoom.";
wrap.append(canvas, info);
app.append(bar, wrap);
document.getElementById("status").textContent =
  R + " x " + C + ", " + DATA.players + " players, attack " + DATA.mode + ", attackradius2 " + N + ": " + ants + " ants, " + dead + " die";
const ctx = canvas.getContext("2d");
let scale = 1, ox = 0, oy = 0, chosen = -1;
function size() {
  canvas.width = Math.max(300, window.innerWidth - 390);
  canvas.height = Math.max(240, window.innerHeight - canvas.getBoundingClientRect().top - 14);
}
function fitView() {
  scale = Math.min(canvas.width / C, canvas.height / R);
  ox = (C - canvas.width / scale) / 2; oy = (R - canvas.height / scale) / 2;
}
// The offsets of an attack: 0 < dr^2 + dc^2 <= attackradius2 (docs/ants_battle.md).
const OFFSETS = [];
for (let dr = -10; dr <= 10; dr++) for (let dc = -10; dc <= 10; dc++) {
  const d = dr * dr + dc * dc;
  if (d > 0 && d <= N) OFFSETS.push([dr, dc]);
}
const mod = (a, m) => ((a % m) + m) % m;
function enemiesOf(cell) {
  const r = Math.floor(cell / C), c = cell % C, me = ownerOf(map.charCodeAt(cell));
  const seen = new Map();
  for (const [dr, dc] of OFFSETS) {
    const e = mod(r + dr, R) * C + mod(c + dc, C);
    if (fateOf[e] >= 0 && ownerOf(map.charCodeAt(e)) !== me) seen.set(e, (seen.get(e) || 0) + 1);
  }
  return seen;
}
// The enemy a focus death names, or -1 (no ant here, or another reason).
function focusEnemy(cell) {
  if (fateOf[cell] < 0) return -1;
  const fate = DATA.fates[fateOf[cell]];
  if (!fate[2].startsWith("focus")) return -1;
  return mod(Math.floor(cell / C) + fate[3], R) * C + mod(cell % C + fate[4], C);
}
function reasonText(cell) {
  const fate = DATA.fates[fateOf[cell]], e = focusEnemy(cell);
  return e >= 0 ? fate[2].replace("@", Math.floor(e / C) + " " + (e % C)) : fate[2];
}
function draw() {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = "#222"; ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.imageSmoothingEnabled = false;
  ctx.setTransform(scale, 0, 0, scale, -ox * scale, -oy * scale);
  ctx.drawImage(pictures[mode], 0, 0);
  const r0 = Math.max(0, Math.floor(oy)), c0 = Math.max(0, Math.floor(ox));
  const r1 = Math.min(R, Math.ceil(oy + canvas.height / scale)), c1 = Math.min(C, Math.ceil(ox + canvas.width / scale));
  if (scale >= 7) {
    ctx.lineWidth = 1.5 / scale;
    ctx.font = "0.8px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) {
      const f = fateOf[r * C + c];
      if (f < 0) continue;
      const fate = DATA.fates[f];
      if (map.charCodeAt(r * C + c) < 97) {
        // An ant on its own hill: the hill as a ring.
        ctx.strokeStyle = "#000"; ctx.beginPath(); ctx.arc(c + 0.5, r + 0.5, 0.47, 0, 2 * Math.PI); ctx.stroke();
      }
      if (mode === "weakness" && scale >= 12) { ctx.fillStyle = "#000"; ctx.fillText(fate[0], c + 0.5, r + 0.55); }
      if (fate[1] && mode === "weakness") {
        ctx.strokeStyle = "#000"; ctx.strokeRect(c + 0.08, r + 0.08, 0.84, 0.84);
      } else if (fate[1]) {
        ctx.strokeStyle = "#fff";
        ctx.beginPath(); ctx.moveTo(c + 0.2, r + 0.2); ctx.lineTo(c + 0.8, r + 0.8); ctx.moveTo(c + 0.8, r + 0.2); ctx.lineTo(c + 0.2, r + 0.8); ctx.stroke();
      }
    }
  }
  canvas.dataset.grid = scale >= 4 ? "on" : "off";
  if (scale >= 4) {
    // The cell grid, so that neighbouring ants of one colour stay apart.
    ctx.lineWidth = 1 / scale;
    ctx.strokeStyle = "rgba(0, 0, 0, 0.35)";
    ctx.beginPath();
    for (let r = r0; r <= r1; r++) { ctx.moveTo(c0, r); ctx.lineTo(c1, r); }
    for (let c = c0; c <= c1; c++) { ctx.moveTo(c, r0); ctx.lineTo(c, r1); }
    ctx.stroke();
  }
  if (chosen >= 0) {
    const r = Math.floor(chosen / C), c = chosen % C;
    ctx.lineWidth = 2 / scale;
    ctx.strokeStyle = "#ff0";
    ctx.strokeRect(c, r, 1, 1);
    // The attack disk and the enemies are an ant's; a bare cell has none.
    if (fateOf[chosen] < 0) return;
    ctx.beginPath(); ctx.arc(c + 0.5, r + 0.5, Math.sqrt(N) + 0.5, 0, 2 * Math.PI); ctx.stroke();
    const focus = focusEnemy(chosen);
    for (const e of enemiesOf(chosen).keys()) {
      let er = Math.floor(e / C), ec = e % C;
      // Draw a wrapped enemy beside the ant, where the torus puts it.
      if (Math.abs(er - r) > R / 2) er += er < r ? R : -R;
      if (Math.abs(ec - c) > C / 2) ec += ec < c ? C : -C;
      ctx.strokeStyle = e === focus ? "#f0f" : "#0ff";
      ctx.beginPath(); ctx.arc(ec + 0.5, er + 0.5, 0.6, 0, 2 * Math.PI); ctx.stroke();
    }
  }
}
function choose(cell) {
  chosen = cell;
  const r = Math.floor(cell / C), c = cell % C, ch = map[cell];
  info.replaceChildren(el("div", "mono", "cell " + r + " " + c + ": '" + ch + "'"));
  if (fateOf[cell] < 0) {
    const kind = el("div", "", { ".": "land", "%": "water", "*": "food" }[ch] || "hill of player " + ch + " (no ant on it)");
    kind.id = "kind";
    info.append(kind, el("div", "", "No ant here: click an ant to see its enemies and its fate."));
  } else {
    const fate = DATA.fates[fateOf[cell]], owner = ownerOf(map.charCodeAt(cell));
    info.append(el("div", "", "ant of player " + owner + (ch < "a" ? " on its own hill" : "")));
    info.append(el("div", "", "weakness " + fate[0] + " (its enemies in range, counted per offset)"));
    const line = el("div", "mono");
    line.id = "fate";
    line.textContent = fate[1] ? "dies: dead " + r + " " + c + " " + owner + " " + reasonText(cell) : "survives";
    info.append(line);
    const list = el("div", "mono"); list.id = "enemies";
    const enemies = [...enemiesOf(cell)];
    list.append(el("div", "", enemies.length + " enemies in range (cyan; magenta: its focus)"));
    for (const [e, times] of enemies) {
      const ef = DATA.fates[fateOf[e]];
      list.append(el("div", "", "  " + Math.floor(e / C) + " " + (e % C) + " player " + ownerOf(map.charCodeAt(e)) + " w=" + ef[0] + (times > 1 ? " (x" + times + ")" : "") + (ef[1] ? " dies" : "")));
    }
    info.append(list);
  }
  if (location.hash !== "#cell=" + r + "," + c) history.replaceState(null, "", "#cell=" + r + "," + c);
  draw();
}
function cellAt(ev) {
  const b = canvas.getBoundingClientRect();
  const c = Math.floor(ox + (ev.clientX - b.left) / scale), r = Math.floor(oy + (ev.clientY - b.top) / scale);
  return r >= 0 && r < R && c >= 0 && c < C ? r * C + c : -1;
}
function zoom(factor, x, y) {
  const cx = ox + x / scale, cy = oy + y / scale;
  scale = Math.max(0.05, Math.min(64, scale * factor));
  ox = cx - x / scale; oy = cy - y / scale;
  draw();
}
let drag = null;
canvas.addEventListener("mousedown", ev => { drag = { x: ev.clientX, y: ev.clientY, ox, oy, moved: false }; });
window.addEventListener("mouseup", ev => {
  if (drag && !drag.moved) { const cell = cellAt(ev); if (cell >= 0) choose(cell); }
  drag = null;
});
canvas.addEventListener("mousemove", ev => {
  if (drag) {
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    ox = drag.ox - dx / scale; oy = drag.oy - dy / scale; draw();
  } else if (ev.shiftKey) {
    const cell = cellAt(ev); if (cell >= 0 && cell !== chosen) choose(cell);
  }
});
canvas.addEventListener("wheel", ev => {
  ev.preventDefault();
  const b = canvas.getBoundingClientRect();
  zoom(ev.deltaY < 0 ? 1.25 : 0.8, ev.clientX - b.left, ev.clientY - b.top);
}, { passive: false });
zoomIn.onclick = () => zoom(2, canvas.width / 2, canvas.height / 2);
zoomOut.onclick = () => zoom(0.5, canvas.width / 2, canvas.height / 2);
fit.onclick = () => { fitView(); draw(); };
toggle.onclick = () => {
  mode = mode === "battle" ? "weakness" : "battle";
  if (!pictures[mode]) pictures[mode] = picture(true);
  toggle.textContent = mode === "battle" ? "weakness picture" : "battle picture";
  toggle.dataset.mode = mode;
  keyText();
  draw();
};
document.addEventListener("keydown", ev => {
  const step = 40 / scale;
  const move = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[ev.key];
  if (move) { ev.preventDefault(); ox += move[0]; oy += move[1]; draw(); }
  if (ev.key === "w") toggle.onclick();
  if (ev.key === "+" || ev.key === "=") zoomIn.onclick();
  if (ev.key === "-") zoomOut.onclick();
});
window.addEventListener("resize", () => { size(); draw(); });
size();
fitView();
// `#cell=R,C` opens on that cell, zoomed in around it; `&weakness` shows that picture.
const m = /cell=(\d+),(\d+)/.exec(location.hash);
if (/weakness/.test(location.hash)) toggle.onclick();
if (m && +m[1] < R && +m[2] < C) {
  scale = Math.max(scale, Math.min(24, canvas.height / 15));
  ox = +m[2] + 0.5 - canvas.width / 2 / scale; oy = +m[1] + 0.5 - canvas.height / 2 / scale;
  choose(+m[1] * C + +m[2]);
} else draw();
canvas.dataset.ready = ants;
// Milliseconds from navigation to a drawn map (measured in docs/kit.md).
document.body.dataset.loadMs = Math.round(performance.now());
