// 猪国杀 replay: step 0 is the deal, step k follows trace event k.
// Every card and role is named in Chinese and in English.
const CARD = { P: "桃", K: "杀", D: "闪", F: "决斗", N: "南猪入侵", W: "万箭齐发", J: "无懈可击", Z: "猪哥连弩" };
const CARD_EN = { P: "peach", K: "kill", D: "dodge", F: "duel", N: "pig invasion", W: "arrow volley", J: "nullify", Z: "crossbow" };
const KNOWN = { "": "unknown", ZP: "跳忠 (shown loyal)", FP: "跳反 (shown rebel)", like: "类反猪 (MP suspects a rebel)", MP: "主猪 main pig, known to all" };
const ROLE = { MP: "主猪 MP main pig", ZP: "忠猪 ZP loyal pig", FP: "反猪 FP rebel pig" };
const cardName = c => c + " " + CARD[c] + " " + CARD_EN[c];
// The trace's lines, explained (docs/zhuguosha.md, "The trace").
const LEGEND = [
  ["turn T pig P ROLE hp H weapon yes|no hand C ...", "turn T starts: pig P's role, hp, crossbow, hand (before its draw)"],
  ["draw P C C", "P draws two cards from the deck"],
  ["play P C", "P plays N (pig invasion), W (arrow volley) or equips Z (crossbow)"],
  ["play P K on T / play P F on T", "P plays a kill or a duel on pig T"],
  ["play P P hp H", "P eats a peach in its turn; its new hp"],
  ["reveal P ZP|FP", "P shows its role: 跳忠 loyal / 跳反 rebel"],
  ["mark P / unmark P", "MP labels P a 类反猪 (suspected rebel) / the label goes"],
  ["negate P counters C of Q protecting|against T", "P plays J (nullify) on card C of pig Q, for or against T"],
  ["answer P C", "P gives up a card in answer: D to a kill or an arrow volley, K in a duel or to a pig invasion"],
  ["damage P by S hp H", "P loses 1 hp to S; H is its new hp (0 or less: dying)"],
  ["peach P hp H", "P eats a peach on the brink of death"],
  ["death P ROLE by S [reward C C C | penalty]", "P dies; a rebel's killer draws 3; MP killing a loyal pig loses hand and weapon"],
  ["rule kill-limit P", "P ends its turn keeping a kill for a target it could hit: without a crossbow, one kill per turn"],
  ["end MP|FP", "the game is over: the main pig's side or the rebels win"],
];
// One trace line in words (pigs are numbered from 1, cards by letter).
function describe(line) {
  const w = line.split(" ");
  const card = c => CARD[c] ? c + " " + CARD_EN[c] : c;
  switch (w[0]) {
    case "turn": return "pig " + w[3] + "'s turn " + w[1] + " begins";
    case "draw": return "pig " + w[1] + " draws " + w.slice(2).map(card).join(", ");
    case "play":
      if (w[3] === "on") return "pig " + w[1] + " plays " + card(w[2]) + " on pig " + w[4];
      if (w[3] === "hp") return "pig " + w[1] + " eats a peach: hp " + w[4];
      return "pig " + w[1] + " plays " + card(w[2]);
    case "reveal": return "pig " + w[1] + " shows itself " + (w[2] === "ZP" ? "loyal" : "a rebel");
    case "mark": return "MP now suspects pig " + w[1] + " a rebel";
    case "unmark": return "pig " + w[1] + " is no longer merely suspected";
    case "negate": return "pig " + w[1] + " nullifies " + card(w[3]) + " of pig " + w[5] + " (" + w[6] + " pig " + w[7] + ")";
    case "answer": return "pig " + w[1] + " answers with " + card(w[2]);
    case "damage": return "pig " + w[1] + " is hurt by pig " + w[3] + ": hp " + w[5];
    case "peach": return "pig " + w[1] + " eats a peach on the brink: hp " + w[3];
    case "death": return "pig " + w[1] + " (" + w[2] + ") dies, killed by pig " + w[4] + (w[5] === "reward" ? ", who draws 3" : w[5] === "penalty" ? ", who loses hand and weapon" : "");
    case "rule": return "pig " + w[2] + " keeps a kill back: without a crossbow, one kill per turn (" + w[1] + ")";
    case "end": return "the game is over: " + (w[1] === "MP" ? "the main pig's side wins" : "the rebels win");
  }
  return "";
}
const events = DATA.events, last = events.length;
// states[k][p] = [index, hp, hand, weapon, known, dead] after k events.
const states = [DATA.deal];
for (const e of events) {
  const s = states[states.length - 1].slice();
  for (const pig of e[5]) s[pig[0]] = pig;
  states.push(s);
}
const app = document.getElementById("app");
const bar = el("div", "bar");
const prev = el("button", "", "◀ prev"), next = el("button", "", "next ▶");
prev.title = "previous event (←)"; next.title = "next event (→)";
const slider = el("input");
slider.type = "range"; slider.min = 0; slider.max = last; slider.id = "slider";
const stepLabel = el("span", "mono"); stepLabel.id = "step";
bar.append(prev, next, slider, stepLabel);
const nowLine = el("div", "mono"); nowLine.id = "now";
const nowWords = el("div", "en"); nowWords.id = "now-words";
// The rules of the statement that fire at the event (kit rules zhuguosha).
const nowRules = el("div", "en"); nowRules.id = "now-rules";
// kit show --rule ID: the events where that rule fires, marked ◆.
const chosen = DATA.rule ? DATA.rule[0] : null;
const marked = [];
events.forEach((e, k) => { if (chosen !== null && e[6].includes(chosen)) marked.push(k + 1); });
app.append(el("div", "about", "A replay of one 猪国杀 game (zhuguosha --trace): every pig's role, hp, hand and weapon " +
  "after each event of the trace, the event's source pig green and its target red. Step 0 is the deal; the last " +
  "step shows the result as zhuguosha prints it."));
if (DATA.cutOff !== null) {
  app.append(el("div", "note", "This game never ends (zhuguosha exit 3): the events up to the cut-off are shown. Why: " + DATA.cutOff));
}
if (chosen !== null) {
  const note = el("div", "note", "◆ marks the " + marked.length + " events where rule " + chosen + " fires: 「" +
    DATA.rule[1] + "」 " + DATA.rule[2] + " Keys n / p: the next / previous mark.");
  note.id = "rule";
  app.append(note);
}
app.append(bar, nowLine, nowWords, nowRules);
const pigs = el("div", "pigs"); pigs.id = "pigs";
const cols = el("div", "cols");
const list = el("div", "events"); list.id = "events";
const side = el("div", "side");
app.append(pigs, cols);
cols.append(list, side);
const legend = el("details", "legend-list"); legend.open = true;
legend.append(el("summary", "", "How to read the events (trace lines)"));
const legendTable = el("table");
for (const [form, meaning] of LEGEND) {
  const tr = el("tr"); tr.append(el("td", "", form), el("td", "", meaning)); legendTable.append(tr);
}
legend.append(legendTable);
app.append(legend);
const rows = [el("div", "", "0  the deal: 4 cards each, hp 4")];
events.forEach((e, k) => {
  const mark = chosen !== null && e[6].includes(chosen);
  rows.push(el("div", mark ? "mark" : "", (k + 1) + (mark ? " ◆ " : "  ") + e[0]));
});
rows.forEach((r, k) => { r.dataset.step = k; list.append(r); });
list.addEventListener("click", ev => { const s = ev.target.dataset.step; if (s !== undefined) show(+s); });
const pigViews = DATA.roles.map((role, p) => {
  const v = el("div", "pig"); v.id = "pig" + (p + 1); pigs.append(v); return v;
});

function cardView(c) {
  const span = el("span", "card"); span.append(el("b", "", c), " " + CARD[c] + " ", el("span", "en", CARD_EN[c])); return span;
}

let step = -1;
function show(n) {
  n = Math.max(0, Math.min(last, n | 0));
  if (n === step) return;
  if (step >= 0) rows[step].classList.remove("cur");
  step = n;
  rows[n].classList.add("cur");
  rows[n].scrollIntoView({ block: "nearest" });
  slider.value = n;
  stepLabel.textContent = "step " + n + " / " + last;
  const e = n > 0 ? events[n - 1] : null;
  nowLine.textContent = e ? "event " + n + ": " + e[0] : "the initial deal";
  nowWords.textContent = e ? describe(e[0]) : "4 cards each, hp 4";
  nowRules.textContent = e && e[6].length ? "rules: " + e[6].join(", ") : "";
  const turnOf = e ? e[3] : 0;
  states[n].forEach((s, p) => {
    const [, hp, hand, weapon, known, dead] = s;
    const v = pigViews[p];
    v.className = "pig" + (dead ? " dead" : "") + (p === turnOf && n > 0 ? " turn" : "") +
      (e && e[1] === p ? " source" : "") + (e && e[2] === p ? " target" : "");
    Object.assign(v.dataset, { hp: hp, hand: hand, weapon: weapon, known: known, dead: dead });
    v.replaceChildren();
    const head = el("div", "head");
    const role = DATA.roles[p];
    head.append(el("span", "num", "#" + (p + 1)), el("span", "role " + role, ROLE[role] || role));
    if (dead) head.append(el("b", "", "DEAD"));
    else head.append(el("span", "hp", "♥".repeat(Math.max(0, hp)) + "♡".repeat(Math.max(0, 4 - hp)) + " hp " + hp));
    if (e && e[1] === p) head.append(el("span", "known", "◀ source"));
    if (e && e[2] === p) head.append(el("span", "known", "◀ target"));
    v.append(head, el("div", "known", "others see: " + KNOWN[known]));
    if (!dead) {
      v.append(el("div", "weapon", weapon ? "weapon: " + cardName("Z") : "weapon: none"));
      const h = el("div", "hand");
      if (hand.length === 0) h.append(el("span", "known", "(empty hand)"));
      if (hand.length <= 12) for (const c of hand) h.append(cardView(c));
      else {
        // A long hand (the deck is out and cards pile up): letters, and a count per kind.
        const count = {};
        for (const c of hand) count[c] = (count[c] || 0) + 1;
        h.append(el("div", "known", hand.length + " cards: " + Object.keys(CARD).filter(c => count[c]).map(c => cardName(c) + " ×" + count[c]).join(", ")));
        h.append(el("div", "letters", hand));
      }
      v.append(h);
    }
  });
  const drawn = e ? e[4] : 0;
  side.replaceChildren(el("b", "", "deck: " + (DATA.deck.length - drawn) + " of " + DATA.deck.length + " cards left"));
  const deck = el("div", "deck");
  const ahead = DATA.deck.slice(drawn, drawn + 12);
  for (const c of ahead) deck.append(cardView(c));
  if (ahead.length === 0 && DATA.deck.length) deck.append(el("span", "known", "empty: every draw is its last card " + DATA.deck.slice(-1)));
  side.append(deck);
  if (n === last) {
    if (DATA.result) {
      side.append(el("div", "", "The result, as zhuguosha prints it:"));
      const pre = el("pre", "result final", DATA.result); pre.id = "result"; side.append(pre);
    } else if (DATA.cutOff !== null) {
      side.append(el("div", "note", "No result: " + DATA.cutOff));
    }
  }
  if (location.hash !== "#step=" + n) history.replaceState(null, "", "#step=" + n);
  document.getElementById("status").textContent = DATA.roles.length + " pigs, " + DATA.deck.length + " deck cards, " + last + " events";
}
prev.onclick = () => show(step - 1);
next.onclick = () => show(step + 1);
slider.oninput = () => show(+slider.value);
document.addEventListener("keydown", ev => {
  if (ev.target === slider) return;
  const after = marked.find(k => k > step), before = marked.filter(k => k < step).pop();
  const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last, n: after, p: before }[ev.key];
  if (to !== undefined) { ev.preventDefault(); show(to); }
});
function fromHash() {
  const m = /step=(\d+)/.exec(location.hash);
  show(m ? +m[1] : 0);
}
window.addEventListener("hashchange", fromHash);
fromHash();
