// The game page: draws the board of step K from the inline data, steps with the slider, the
// buttons and the keys (left/right, Home/End, space), and keeps #step=K in the address.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const frames = data.frames, last = frames.length - 1, S = 34;
  const $ = (id) => document.getElementById(id);
  const svgNS = "http://www.w3.org/2000/svg";
  const board = data.board;

  // the full tiles of every step, from the changes each step recorded
  const states = [];
  if (board) {
    let tiles = [];
    for (const f of frames) {
      tiles = tiles.slice();
      for (const [i, text, k] of f.d) tiles[i] = [text, data.kinds[k]];
      states.push(tiles);
    }
  }

  $("title").textContent = `${data.game} · ${data.map} · ${data.agent}`;
  // a scored game (Ooze) ends rather than being lost
  const outcome = data.objective === "score" && data.outcome === "lost" ? "ended" : data.outcome;
  $("meta").innerHTML = "";
  $("meta").append(`seed ${data.seed === null ? "none" : data.seed} · ${last} steps · `);
  const out = document.createElement("b");
  out.className = "outcome-" + outcome; out.textContent = outcome.toUpperCase().replace("_", " ");
  $("meta").append(out);
  if (data.error) {  // a game the agent failed: what it raised, and where in its code
    const why = document.createElement("div");
    why.className = "failure"; why.textContent = data.error;
    $("meta").append(why);
  }

  let root, route, routeStart, groups = [];
  const wrap = $("board-wrap");
  function el(name, attrs) {
    const e = document.createElementNS(svgNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  if (board) {
    const shift = (r) => (board.row_shift.length ? board.row_shift[r] : 0);
    const maxShift = board.row_shift.length ? Math.max(...board.row_shift) : 0;
    // the game's row and column numbers (0-based, as in the actions) around the board
    const rowLabels = board.row_labels || [], colLabels = board.col_labels || [];
    const LX = rowLabels.some((x) => x) ? 6 + 8 * Math.max(...rowLabels.map((x) => x.length)) : 0;
    const LY = colLabels.some((x) => x) ? 16 : 0;
    const W = LX + (board.cols + maxShift) * S + 4, H = LY + board.rows * S + 4;
    root = el("svg", { id: "board", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img" });
    const label = (x, y, text, anchor) => {
      const t = el("text", { x, y, "text-anchor": anchor, "dominant-baseline": "central", "font-size": 11, fill: "#777", class: "label" });
      t.textContent = text;
      root.append(t);
    };
    rowLabels.forEach((text, r) => { if (text) label(LX - 4, LY + 2 + r * S + S / 2, text, "end"); });
    colLabels.forEach((text, c) => { if (text) label(LX + 2 + (c + shift(0)) * S + S / 2, LY / 2, text, "middle"); });
    for (let r = 0; r < board.rows; r++) {
      for (let c = 0; c < board.cols; c++) {
        const x = LX + 2 + (c + shift(r)) * S, y = LY + 2 + r * S;
        const g = el("g", { class: "tile", "data-cell": `${r},${c}` });
        const rect = el("rect", { x: x + 1, y: y + 1, width: S - 2, height: S - 2, rx: 3 });
        const odds = el("rect", { x: x + 1, y: y + 1, width: S - 2, height: S - 2, rx: 3, fill: "#e05a47", "fill-opacity": 0 });
        const text = el("text", { x: x + S / 2, y: y + S / 2 + 1, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 17, "font-weight": 600 });
        const mark = el("rect", { x: x + 2.5, y: y + 2.5, width: S - 5, height: S - 5, rx: 3, fill: "none", "stroke-width": 3, visibility: "hidden" });
        const small = el("text", { x: x + S / 2, y: y + S - 6, "text-anchor": "middle", "font-size": 11, "font-weight": 600, fill: "#7a1a10" });
        g.append(rect, odds, text, mark, small);
        root.append(g);
        groups.push({ g, rect, odds, text, mark, small, cx: x + S / 2, cy: y + S / 2 });
      }
    }
    if (board.boxes) {
      const [bh, bw] = board.boxes;
      for (let r = 0; r <= board.rows; r += bh)
        root.append(el("line", { x1: LX + 2, y1: LY + 2 + r * S, x2: LX + 2 + board.cols * S, y2: LY + 2 + r * S, stroke: "#1b1b1b", "stroke-width": 2.5 }));
      for (let c = 0; c <= board.cols; c += bw)
        root.append(el("line", { x1: LX + 2 + c * S, y1: LY + 2, x2: LX + 2 + c * S, y2: LY + 2 + board.rows * S, stroke: "#1b1b1b", "stroke-width": 2.5 }));
    }
    // a plan's route (Ooze): a line through its cells in order, a dot where it starts
    route = el("polyline", { id: "route", fill: "none", stroke: "#4a7bd1", "stroke-width": 4, "stroke-opacity": 0.75, "stroke-linejoin": "round", "stroke-linecap": "round", visibility: "hidden" });
    routeStart = el("circle", { r: 6, fill: "#4a7bd1", visibility: "hidden" });
    root.append(route, routeStart);
    wrap.append(root);
  } else {
    root = document.createElement("pre");
    root.id = "board";
    wrap.append(root);
  }

  const moves = $("moves");
  frames.slice(1).forEach((f, i) => {
    const li = document.createElement("li");
    li.textContent = f.action;
    li.dataset.step = i + 1;
    if (f.why && frames[i + 1].guesses > frames[i].guesses) li.className = "guess";
    if (f.certified !== undefined) {
      // a certified move: every UNSAT answer it rests on came with a proof a checker accepted
      li.className = "certified";
      li.dataset.lemmas = f.certified;
      li.title = `certified: its proofs (${f.certified} lemmas) were checked`;
    }
    li.addEventListener("click", () => show(i + 1));
    moves.append(li);
  });

  const slider = $("slider");
  slider.max = last;
  let step = -1, timer = null;

  function show(k) {
    k = Math.max(0, Math.min(last, k | 0));
    step = k;
    const f = frames[k];
    root.dataset.step = k;
    if (board) {
      const tiles = states[k];
      const move = new Set(f.move || []), proof = new Set(f.proof || []);
      const odds = new Map((f.odds || []).map(([i, p]) => [i, p]));
      groups.forEach((t, i) => {
        const [text, kind] = tiles[i] || ["", ""];
        const [fill, ink] = board.palette[kind] || ["#f7f5ef", "#1b1b1b"];
        t.g.dataset.kind = kind; t.g.dataset.text = text;
        t.rect.setAttribute("fill", fill); t.text.setAttribute("fill", ink);
        t.text.textContent = text;
        const p = odds.get(i);
        t.odds.setAttribute("fill-opacity", p === undefined ? 0 : (0.12 + 0.7 * p).toFixed(3));
        t.small.textContent = p === undefined ? "" : p.toFixed(2).replace(/^0/, "");
        if (p === undefined) delete t.g.dataset.odds; else t.g.dataset.odds = p;
        const isMove = move.has(i), isProof = proof.has(i);
        t.g.dataset.move = isMove ? "1" : "0"; t.g.dataset.proof = isProof ? "1" : "0";
        t.mark.setAttribute("visibility", isMove || isProof ? "visible" : "hidden");
        t.mark.setAttribute("stroke", isMove ? "#e8590c" : "#4a7bd1");
        t.mark.setAttribute("stroke-dasharray", isMove ? "" : "4 3");
      });
      const path = (f.route || []).filter((i) => groups[i]);
      route.setAttribute("points", path.map((i) => `${groups[i].cx},${groups[i].cy}`).join(" "));
      route.setAttribute("visibility", path.length ? "visible" : "hidden");
      route.dataset.cells = path.join(",");
      if (path.length) { routeStart.setAttribute("cx", groups[path[0]].cx); routeStart.setAttribute("cy", groups[path[0]].cy); }
      routeStart.setAttribute("visibility", path.length ? "visible" : "hidden");
    } else {
      root.textContent = f.text;
    }
    const own = f.counters || [];
    const counters = [["step", `${k}/${last}`], ["guesses", f.guesses], ["score", f.score]]
      .filter(([name]) => !own.some(([n]) => n === name)).concat(own);
    $("counters").innerHTML = "";
    for (const [name, value] of counters) {
      const s = document.createElement("span");
      s.dataset.counter = name;
      s.append(`${name} `);
      const b = document.createElement("b"); b.textContent = value; s.append(b);
      $("counters").append(s);
    }
    const why = $("why");
    why.innerHTML = "";
    if (k === 0) why.textContent = "the start: press → or ▶ to watch";
    else {
      const a = document.createElement("span"); a.className = "act"; a.textContent = f.action;
      why.append(a, f.why ? `: ${f.why}` : "");
      if (f.certified !== undefined) {
        const c = document.createElement("span"); c.className = "cert";
        c.textContent = ` ✓ certified (proofs of ${f.certified} lemmas checked)`;
        why.append(c);
      }
    }
    slider.value = k;
    for (const li of moves.children) li.classList.toggle("now", +li.dataset.step === k);
    // keep the move in view by scrolling the move list alone: scrollIntoView would scroll
    // the page too, and on a narrow screen (the list under the board) push the board away
    const now = moves.children[k - 1], list = moves.parentElement;
    if (now && list) {
      const top = now.offsetTop, bottom = top + now.offsetHeight;
      if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight)
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
    try { if (location.hash !== `#step=${k}`) history.replaceState(null, "", `#step=${k}`); } catch (e) { /* a page opened from disk may refuse */ }
  }

  function stop() { clearInterval(timer); timer = null; $("play").textContent = "▶"; }
  function play() {
    if (timer) return stop();
    if (step >= last) show(0);
    $("play").textContent = "⏸";
    timer = setInterval(() => { if (step >= last) stop(); else show(step + 1); }, +$("speed").value);
  }
  $("first").onclick = () => { stop(); show(0); };
  $("prev").onclick = () => { stop(); show(step - 1); };
  $("next").onclick = () => { stop(); show(step + 1); };
  $("last").onclick = () => { stop(); show(last); };
  $("play").onclick = play;
  $("speed").onchange = () => { if (timer) { stop(); play(); } };
  slider.oninput = () => { stop(); show(+slider.value); };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = { ArrowLeft: () => show(step - 1), ArrowRight: () => show(step + 1),
                   Home: () => show(0), End: () => show(last) };
    if (keys[e.key]) { stop(); keys[e.key](); e.preventDefault(); }
    else if (e.key === " ") { play(); e.preventDefault(); }
  });
  const fromHash = () => { const m = /step=(\d+)/.exec(location.hash); return m ? +m[1] : 0; };
  window.addEventListener("hashchange", () => { if (fromHash() !== step) show(fromHash()); });
  show(fromHash());
})();
