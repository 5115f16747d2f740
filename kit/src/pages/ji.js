// 集: the referee's record round by round, or the solver's value table.
// Skills are named as the input names them, with the English name `ji`
// gives the common variant's skills beside them.
const app = document.getElementById("app");
const named = name => DATA.english[name] ? name + " (" + DATA.english[name] + ")" : name;
// skills[i] = [name, delta, req, beats]
const beats = {};
for (const [name, , , list] of DATA.skills) beats[name] = new Set(list);
// The variant: every skill, what it gives or costs, what it needs, what it beats.
function variantTable() {
  const box = el("details", "legend-list"); box.open = true;
  box.append(el("summary", "", "The variant: " + DATA.skills.length + " skills (each side starts with 0 集; a skill needs its req 集 or more, and adds delta to its player's count)"));
  const t = el("table", "grid"); t.id = "variant";
  const head = el("tr");
  for (const h of ["skill", "delta", "req", "beats"]) head.append(el("th", "", h));
  t.append(head);
  for (const [name, delta, req, list] of DATA.skills) {
    const tr = el("tr");
    tr.append(el("td", "", named(name)), el("td", "", delta), el("td", "", String(req)));
    const b = el("td", "", list.length ? list.map(named).join(", ") : "—"); b.style.textAlign = "left";
    tr.append(b);
    t.append(tr);
  }
  box.append(t);
  if (DATA.lasting.length) {
    // Lasting effects: what a skill takes from the opponent for the rest of the game.
    const l = el("table", "grid"); l.id = "lasting";
    const head = el("tr");
    for (const h of ["lasting effect of", "when it meets", "the other side loses"]) head.append(el("th", "", h));
    l.append(head);
    for (const [skill, met, taken] of DATA.lasting) {
      const tr = el("tr");
      for (const v of [named(skill), met.map(named).join(", "), taken.map(named).join(", ")]) tr.append(el("td", "", v));
      l.append(tr);
    }
    box.append(el("div", "", "Lasting effects (in a round that goes on; a lost skill is illegal for the rest of the game):"), l);
  }
  return box;
}
if (DATA.note) app.append(el("div", "note", DATA.note));
if (DATA.kind === "ji_referee") {
  app.append(el("div", "about", "One recorded game of 集 refereed (ji_referee --trace): both players' skills and counts of 集 round by round, up to the round that decides, and the verdict."));
  app.append(variantTable());
  const verdict = el("div", "verdict", "verdict: " + DATA.verdict); verdict.id = "verdict";
  const words = DATA.verdict.split(" ");
  const decider = DATA.rounds[DATA.rounds.length - 1];
  const why = {
    A: (decider ? named(decider[1]) + " beats " + named(decider[2]) : "A's skill beats B's") + " in round " + words[1] + ": A wins",
    B: (decider ? named(decider[2]) + " beats " + named(decider[1]) : "B's skill beats A's") + " in round " + words[1] + ": B wins",
    ILLEGAL: "round " + words[2] + ": " + (words[1] === "AB" ? "both play" : words[1] + " plays") + " a skill without enough 集" + (DATA.lasting.length ? " or one already lost" : ""),
    CONTINUE: "every round was played and no one won: A holds " + words[1] + " 集, B holds " + words[2],
  }[words[0]] || "";
  const whyLine = el("div", "", why); whyLine.id = "why";
  app.append(verdict, whyLine);
  document.getElementById("status").textContent = DATA.rounds.length + " rounds refereed";
  const meaning = (r, a, b) => {
    const w = r.split(" ");
    if (w[0] === "next") {
      const losses = r.split(" taken ").slice(1).map(t => { const [who, ...lost] = t.split(" "); return "; " + who + " loses " + lost.map(named).join(", "); });
      return "no skill beats the other: go on with A " + w[1] + ", B " + w[2] + losses.join("");
    }
    if (w[0] === "A") return named(a) + " beats " + named(b) + ": A wins";
    if (w[0] === "B") return named(b) + " beats " + named(a) + ": B wins";
    if (w[0] === "ILLEGAL") return (w[1] === "AB" ? "both" : w[1]) + " played a skill without enough 集" + (DATA.lasting.length ? " or one already lost" : "");
    return r;
  };
  // Pages of PAGE rounds, so that a 200,000-round record stays light.
  const PAGE = 500, pages = Math.max(1, Math.ceil(DATA.rounds.length / PAGE));
  const bar = el("div", "bar");
  const prev = el("button", "", "◀ earlier"), next = el("button", "", "later ▶"), where = el("span", "mono");
  where.id = "page";
  if (pages > 1) bar.append(prev, next, where);
  const table = el("table", "grid"); table.id = "rounds";
  app.append(bar, table);
  let page = -1;
  function show(p) {
    p = Math.max(0, Math.min(pages - 1, p));
    if (p === page) return;
    page = p;
    const from = p * PAGE, to = Math.min(DATA.rounds.length, from + PAGE);
    where.textContent = "rounds " + (from + 1) + ".." + to + " of " + DATA.rounds.length;
    const head = el("tr");
    for (const h of ["round", "A plays", "B plays", "A's 集 before", "B's 集 before", "then"]) head.append(el("th", "", h));
    head.lastChild.style.textAlign = "left";
    table.replaceChildren(head);
    for (let i = from; i < to; i++) {
      const r = DATA.rounds[i];
      const tr = el("tr", i === DATA.rounds.length - 1 && !/^next|^\?/.test(r[5]) ? "decides" : "");
      for (const v of [r[0], named(r[1]), named(r[2]), r[3], r[4]]) tr.append(el("td", "", String(v)));
      const last = el("td", "", meaning(r[5], r[1], r[2])); last.style.textAlign = "left";
      tr.append(last);
      table.append(tr);
    }
    if (pages > 1) history.replaceState(null, "", "#round=" + (from + 1));
  }
  prev.onclick = () => show(page - 1);
  next.onclick = () => show(page + 1);
  document.addEventListener("keydown", ev => {
    const to = { ArrowLeft: page - 1, ArrowRight: page + 1, Home: 0, End: pages - 1 }[ev.key];
    if (to !== undefined) { ev.preventDefault(); show(to); }
  });
  // `#round=T` opens on the page of round T; by default the deciding one.
  const m = /round=(\d+)/.exec(location.hash);
  show(m ? Math.floor((+m[1] - 1) / PAGE) : pages - 1);
} else {
  const side = DATA.c + 1;
  document.getElementById("status").textContent =
    DATA.skills.length + " skills, states 0.." + DATA.c + " x 0.." + DATA.c + (DATA.game_c > DATA.c ? " drawn (C = " + DATA.game_c + ")" : "") + ", " + DATA.queries.length + " queries in the input" + (DATA.lost.length > 1 ? ", " + DATA.lost.length + " combinations of lost skills" : "");
  const limit = DATA.R === "0" || /^0+$/.test(DATA.R) ? "no round limit (R = 0)" : "R = " + DATA.R + ": after " + DATA.R + " rounds the game is a draw";
  const chance = "p = " + DATA.p + ": after every round that does not end the game, it is called off as a draw with probability " + DATA.p + "%";
  app.append(el("div", "about", "The value of every state of this 集 game under optimal play (ji_solver --strategy): P(A wins) − P(B wins) from the state where A holds x 集 (down) and B holds y 集 (across). Framed: the input's queries. Hover over or click a state for both players' optimal first-round strategies."));
  const rules = el("div", "mono", limit + "; " + chance + "."); rules.id = "rules";
  app.append(rules, variantTable());
  if (DATA.game_c > DATA.c) {
    const part = el("div", "note", "C = " + DATA.game_c + ": the page draws the states 0.." + DATA.c + " x 0.." + DATA.c + " of each table (the solver solves the whole game); a query past them is not framed.");
    part.id = "part";
    app.append(part);
  }
  if (DATA.cells.length) valueTables(side);
  else app.append(el("div", "note", "ji_solver answered none of the states: no table to draw."));
}
// The value tables and the chosen state's strategies.
function valueTables(side) {
  // One table per combination of lost skills (a variant without lasting
  // effects has one, where nothing is lost), shown one at a time: the
  // selector picks it.
  const wrap = el("div", "cols");
  const tables = el("div");
  const info = el("div", "info"); info.id = "info";
  wrap.append(tables, info);
  const plane = side * side;
  const drawn = DATA.queries.filter(([x, y]) => x < side && y < side);
  const queried = new Set(drawn.map(([x, y, t]) => (t || 0) * plane + x * side + y));
  const colour = v => {
    // Blue: A ahead, red: B ahead, white: even.
    const a = Math.min(1, Math.abs(v));
    const shade = Math.round(255 - 150 * a);
    return v >= 0 ? "rgb(" + shade + "," + shade + ",255)" : "rgb(255," + shade + "," + shade + ")";
  };
  const lostWords = ([a, b]) => "A has lost " + (a.length ? a.join(" ") : "nothing") + "; B has lost " + (b.length ? b.join(" ") : "nothing");
  if (!DATA.every_pair) {
    const sets = DATA.lost_sets === null ? "More lost sets a side than the page lists" : DATA.lost_sets + " lost sets a side";
    const few = el("div", "note", sets + " make more tables than one page holds (or the solver answers): here are the tables of the input's queries.");
    few.id = "few-tables";
    app.append(few);
  }
  const picker = el("select"); picker.id = "lost";
  DATA.lost.forEach((lost, t) => {
    const asked = DATA.queries.filter(q => (q[2] || 0) === t).length;
    const option = el("option", "", "table " + (t + 1) + " of " + DATA.lost.length + ": " + lostWords(lost) + (asked ? " (" + asked + " queried)" : ""));
    option.value = t;
    picker.append(option);
  });
  if (DATA.lost.length > 1) {
    const bar = el("div", "bar");
    bar.append(el("span", "", "lost skills: "), picker);
    app.append(bar);
  }
  app.append(wrap);
  const table = el("table", "grid heat"); table.id = "heat";
  tables.append(table);
  let shown = -1, cells = [];
  // Draws table t (its cells are `cells`, row-major).
  function draw(t) {
    if (t === shown) return;
    shown = t;
    picker.value = t;
    table.dataset.t = t;
    const head = el("tr"); head.append(el("th", "", "A \\ B"));
    for (let y = 0; y < side; y++) head.append(el("th", "", String(y)));
    table.replaceChildren(head);
    cells = [];
    for (let x = 0; x < side; x++) {
      const tr = el("tr"); tr.append(el("th", "", String(x)));
      for (let y = 0; y < side; y++) {
        const at = t * plane + x * side + y;
        const [value] = DATA.cells[at];
        const v = parseFloat(value);
        const td = el("td", queried.has(at) ? "query" : "", v.toFixed(2).replace("-0.00", "0.00"));
        td.style.background = colour(v);
        td.dataset.x = x; td.dataset.y = y; td.dataset.t = t; td.title = "A " + x + ", B " + y + ": " + value;
        tr.append(td); cells.push(td);
      }
      table.append(tr);
    }
  }
  let sel = null;
  function strategy(text) {
    const w = text.split(" "), div = el("div", "mono");
    if (!text) { div.textContent = "(none printed)"; return div; }
    for (let i = 0; i + 1 < w.length; i += 2) div.append(el("div", "", w[i] + "  " + w[i + 1] + (DATA.english[w[i]] ? "  " + DATA.english[w[i]] : "")));
    return div;
  }
  function choose(x, y, t) {
    if (sel) sel.classList.remove("sel");
    draw(t);
    const at = t * plane + x * side + y;
    sel = cells[x * side + y]; sel.classList.add("sel");
    const [value, a, b] = DATA.cells[at];
    info.replaceChildren(el("b", "", "A holds " + x + " 集, B holds " + y), el("div", "mono", "value " + value));
    if (DATA.lost.length > 1) info.append(el("div", "mono", lostWords(DATA.lost[t])));
    info.append(el("div", "", "A's optimal strategy:"), strategy(a), el("div", "", "B's optimal strategy:"), strategy(b));
    info.dataset.x = x; info.dataset.y = y; info.dataset.t = t;
    history.replaceState(null, "", "#state=" + x + "," + y + (t ? "," + t : ""));
  }
  tables.addEventListener("click", ev => { const d = ev.target.dataset; if (d.x !== undefined) choose(+d.x, +d.y, +d.t); });
  tables.addEventListener("mouseover", ev => { const d = ev.target.dataset; if (d.x !== undefined) choose(+d.x, +d.y, +d.t); });
  // Another table: the same state there.
  picker.onchange = () => choose(+info.dataset.x, +info.dataset.y, +picker.value);
  const m = /state=(\d+),(\d+)(?:,(\d+))?/.exec(location.hash);
  const first = DATA.queries[0] || [0, 0, 0];
  if (m && +m[1] < side && +m[2] < side && +(m[3] || 0) < DATA.lost.length) choose(+m[1], +m[2], +(m[3] || 0));
  else choose(Math.min(first[0], DATA.c), Math.min(first[1], DATA.c), first[2] || 0);
}
