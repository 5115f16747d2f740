// 集: the referee's record round by round, or the solver's value table.
const app = document.getElementById("app");
if (DATA.note) app.append(el("div", "note", DATA.note));
if (DATA.kind === "ji_referee") {
  const verdict = el("div", "verdict", "verdict: " + DATA.verdict); verdict.id = "verdict";
  const words = DATA.verdict.split(" ");
  const why = {
    A: "A's skill beats B's in round " + words[1] + ": A wins",
    B: "B's skill beats A's in round " + words[1] + ": B wins",
    ILLEGAL: "round " + words[2] + ": " + (words[1] === "AB" ? "both play" : words[1] + " plays") + " a skill without enough 集",
    CONTINUE: "every round was played and no one won: A holds " + words[1] + " 集, B holds " + words[2],
  }[words[0]] || "";
  app.append(verdict, el("div", "", why));
  document.getElementById("status").textContent = DATA.rounds.length + " rounds refereed";
  const meaning = r => {
    const w = r.split(" ");
    if (w[0] === "next") return "no skill beats the other: go on with A " + w[1] + ", B " + w[2];
    if (w[0] === "A" || w[0] === "B") return w[0] + "'s skill beats the other's: " + w[0] + " wins";
    if (w[0] === "ILLEGAL") return (w[1] === "AB" ? "both" : w[1]) + " played a skill without enough 集";
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
      for (const v of [r[0], r[1], r[2], r[3], r[4]]) tr.append(el("td", "", String(v)));
      const last = el("td", "", meaning(r[5])); last.style.textAlign = "left";
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
    DATA.skills.length + " skills, states 0.." + DATA.c + " x 0.." + DATA.c + ", " + DATA.queries.length + " queries in the input";
  app.append(el("div", "", "The value P(A wins) − P(B wins) of every state under optimal play: A's 集 down, B's 集 across. Framed: the input's queries. Hover over or click a state for its optimal first-round strategies."));
  const wrap = el("div", "cols");
  const table = el("table", "grid heat"); table.id = "heat";
  const info = el("div", "info"); info.id = "info";
  wrap.append(table, info);
  app.append(wrap);
  const queried = new Set(DATA.queries.map(([x, y]) => x * side + y));
  const head = el("tr"); head.append(el("th", "", "A \\ B"));
  for (let y = 0; y < side; y++) head.append(el("th", "", String(y)));
  table.append(head);
  const colour = v => {
    // Blue: A ahead, red: B ahead, white: even.
    const a = Math.min(1, Math.abs(v));
    const shade = Math.round(255 - 150 * a);
    return v >= 0 ? "rgb(" + shade + "," + shade + ",255)" : "rgb(255," + shade + "," + shade + ")";
  };
  const cells = [];
  for (let x = 0; x < side; x++) {
    const tr = el("tr"); tr.append(el("th", "", String(x)));
    for (let y = 0; y < side; y++) {
      const [value] = DATA.cells[x * side + y];
      const v = parseFloat(value);
      const td = el("td", queried.has(x * side + y) ? "query" : "", v.toFixed(2).replace("-0.00", "0.00"));
      td.style.background = colour(v);
      td.dataset.x = x; td.dataset.y = y; td.title = "A " + x + ", B " + y + ": " + value;
      tr.append(td); cells.push(td);
    }
    table.append(tr);
  }
  let sel = null;
  function strategy(text) {
    const w = text.split(" "), div = el("div", "mono");
    if (!text) { div.textContent = "(none printed)"; return div; }
    for (let i = 0; i + 1 < w.length; i += 2) div.append(el("div", "", w[i] + "  " + w[i + 1]));
    return div;
  }
  function choose(x, y) {
    if (sel) sel.classList.remove("sel");
    sel = cells[x * side + y]; sel.classList.add("sel");
    const [value, a, b] = DATA.cells[x * side + y];
    info.replaceChildren(el("b", "", "A holds " + x + " 集, B holds " + y), el("div", "mono", "value " + value));
    info.append(el("div", "", "A's optimal strategy:"), strategy(a), el("div", "", "B's optimal strategy:"), strategy(b));
    info.dataset.x = x; info.dataset.y = y;
    history.replaceState(null, "", "#state=" + x + "," + y);
  }
  table.addEventListener("click", ev => { const d = ev.target.dataset; if (d.x !== undefined) choose(+d.x, +d.y); });
  table.addEventListener("mouseover", ev => { const d = ev.target.dataset; if (d.x !== undefined) choose(+d.x, +d.y); });
  const m = /state=(\d+),(\d+)/.exec(location.hash);
  const first = DATA.queries[0] || [0, 0];
  if (m && +m[1] < side && +m[2] < side) choose(+m[1], +m[2]);
  else choose(Math.min(first[0], DATA.c), Math.min(first[1], DATA.c));
}
