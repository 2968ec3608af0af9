// wopr's page: play a game against the server's players, hear each move as
// the musicator's bar of three notes, follow evolution runs. The page knows
// no rules: the server sends the board, the legal moves and where to click.
"use strict";

const $ = (id) => document.getElementById(id);
let games = [];        // from /api/games
let current = null;    // the held game's last snapshot
let busy = false;      // a request is under way
let seat = "0";        // the person's seat choice
let pendingFrom = null; // a Virus jump's chosen start square [col, row]
let heard = 0;         // moves whose bars have been played
let audio = null;      // the Web Audio context
let nextBarAt = 0;     // when the next bar may start (audio time)
let runTimer = null;   // the live run page's poll

// General MIDI programs offered for each seat (any 0-127 works in the API).
const INSTRUMENTS = [
  [0, "Acoustic Grand Piano"], [11, "Vibraphone"], [19, "Church Organ"],
  [24, "Nylon Guitar"], [32, "Acoustic Bass"], [40, "Violin"],
  [48, "String Ensemble"], [56, "Trumpet"], [65, "Alto Sax"],
  [73, "Flute"], [80, "Square Lead"], [89, "Warm Pad"],
];

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch("/api" + path, opts);
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function showError(e) { $("error").textContent = e ? String(e.message || e) : ""; }

// ---- set-up -------------------------------------------------------------

async function loadGames() {
  games = (await api("GET", "/games")).games;
  const sel = $("game-select");
  sel.innerHTML = "";
  for (const g of games) {
    const o = document.createElement("option");
    o.value = g.spec;
    const params = g.params.map((p) => p.name + "=" + p.default).join(", ");
    o.textContent = g.name + (params ? " (" + params + ")" : "");
    o.title = g.about;
    sel.appendChild(o);
  }
  sel.onchange = () => { $("game-spec").value = sel.value; loadPlayers(); };
  $("game-spec").value = sel.value;
  $("game-spec").onchange = loadPlayers;
  for (const s of document.querySelectorAll(".instrument")) {
    for (const [n, name] of INSTRUMENTS) {
      const o = document.createElement("option");
      o.value = n; o.textContent = n + " " + name;
      s.appendChild(o);
    }
  }
  $("instrument-1").value = "40";
  await loadPlayers();
}

async function loadPlayers(prefer) {
  showError(null);
  try {
    const p = await api("GET", "/players?game=" + encodeURIComponent($("game-spec").value));
    const sel = $("opponent");
    sel.innerHTML = "";
    for (const spec of p.players) {
      const o = document.createElement("option");
      o.value = o.textContent = spec;
      sel.appendChild(o);
    }
    const want = prefer || (p.players.includes("alphabeta:depth=2") ? "alphabeta:depth=2" : "random");
    if (p.players.includes(want)) sel.value = want;
    sel.title = "accepted: " + p.syntax.join(", ");
  } catch (e) { showError(e); }
}

function opponentSpec() {
  return $("custom-opponent").value.trim() || $("opponent").value;
}

function musicSettings() {
  const refs = $("references").value.split(",").map((s) => s.trim()).filter(Boolean);
  return {
    music: { references: refs, phrase_bars: Number($("phrase-bars").value) || 0 },
    tempo: Number($("tempo").value) || 120,
    instruments: [Number($("instrument-0").value), Number($("instrument-1").value)],
  };
}

async function newGame() {
  if (busy) return;
  showError(null);
  ensureAudio();
  seat = $("seat").value;
  const opp = opponentSpec();
  const spec = $("game-spec").value.trim();
  const players = seat === "0" ? ["human", opp] : seat === "1" ? [opp, "human"] : [opp, opp];
  busy = true;
  current = null;
  for (const id of ["board", "legal-buttons", "moves"]) $(id).innerHTML = "";
  $("result").textContent = "";
  $("text-board").textContent = "";
  $("status").textContent = "Starting a new game…";
  try {
    const m = musicSettings();
    current = await api("POST", "/games", { game: spec, players, ...m });
    heard = 0;
    pendingFrom = null;
    render();
  } catch (e) {
    showError(e);
  } finally {
    busy = false;
  }
  step();
}

function swapSeats() {
  const s = $("seat");
  s.value = s.value === "0" ? "1" : s.value === "1" ? "0" : "watch";
  newGame();
}

// ---- playing ------------------------------------------------------------

async function play(action) {
  if (busy || !current || !current.human_to_move) return;
  busy = true;
  showError(null);
  try {
    current = await api("POST", "/games/" + current.id + "/move", { action });
    pendingFrom = null;
    render();
  } catch (e) {
    showError(e);
  } finally {
    busy = false;
  }
  step();
}

// Asks the server for engine moves while an engine is to move.
async function step() {
  if (busy || !current || !current.engine_to_move) return;
  busy = true;
  const id = current.id;
  $("status").textContent = "Engine thinking…";
  try {
    const next = await api("POST", "/games/" + id + "/engine");
    if (current && current.id === id) { current = next; render(); }
  } catch (e) {
    showError(e);
  } finally {
    busy = false;
  }
  if (current && current.engine_to_move) setTimeout(step, 150);
}

// ---- drawing ------------------------------------------------------------

const PIECES = ["X", "O"];
function pieceName(game, s) {
  if (game.startsWith("reversi") || game.startsWith("virus")) return s === 0 ? "black" : "white";
  return PIECES[s] || String(s);
}

function render() {
  const g = current;
  if (!g) return;
  $("game-id").textContent = g.id;
  $("midi-link").href = "/api/games/" + g.id + "/midi";
  $("wav-link").href = "/api/games/" + g.id + "/wav";
  $("downloads").hidden = false;
  drawBoard(g);
  $("text-board").textContent = g.board.kind === "text" ? g.text : "";
  drawButtons(g);
  drawMoves(g);
  const names = g.seat_names;
  if (g.result) {
    const score = g.result.score ? " — score margin " + names[0] + " " + fmtSigned(g.result.score[0]) : "";
    $("result").textContent = "Result: " + g.result.text + score;
    $("status").textContent = "Game over (" + g.moves.length + " moves).";
  } else {
    $("result").textContent = "";
    if (g.human_to_move) {
      const who = g.to_move != null ? names[g.to_move] : "";
      $("status").textContent = "Your move (" + who + ")" +
        (pendingFrom ? ": now click where to jump" : "");
    } else if (g.engine_to_move) {
      $("status").textContent = "Engine to move (" + g.players[g.to_move] + ")";
    }
  }
  playNewBars(g);
}

function fmtSigned(x) { return (x > 0 ? "+" : "") + x; }

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

// Legal moves by where they are clicked.
function targets(g) {
  const cells = new Map(), columns = new Map(), edges = new Map(), jumps = [], buttons = [];
  for (const m of g.legal) {
    const t = m.target;
    if (t.kind === "cell") cells.set(t.col + "," + t.row, m);
    else if (t.kind === "column") columns.set(t.col, m);
    else if (t.kind === "edge") edges.set(t.dir + t.row + "," + t.col, m);
    else if (t.kind === "jump") jumps.push(m);
    else buttons.push(m);
  }
  return { cells, columns, edges, jumps, buttons };
}

function drawBoard(g) {
  const board = $("board");
  board.innerHTML = "";
  board.className = "board " + g.board.kind;
  const b = g.board;
  const t = targets(g);
  if (b.kind === "grid") {
    board.style.gridTemplateColumns = "repeat(" + b.cols + ", var(--cell))";
    const c4 = g.game.startsWith("connect4");
    if (c4) board.classList.add("connect4");
    for (let r = 0; r < b.rows; r++) {
      for (let c = 0; c < b.cols; c++) {
        const who = b.cells[r][c];
        const cell = el("div", "cell");
        cell.dataset.col = c;
        cell.dataset.row = r;
        if (who != null) {
          const p = el("span", "piece p" + who, c4 || g.game.startsWith("tictactoe") ? PIECES[who] : "");
          p.title = pieceName(g.game, who);
          cell.appendChild(p);
        }
        let move = c4 ? t.columns.get(c) : t.cells.get(c + "," + r);
        // Virus jumps: click the piece to jump from, then the square to.
        const from = t.jumps.filter((m) => m.target.from[0] === c && m.target.from[1] === r);
        const to = pendingFrom ? t.jumps.find((m) => m.target.from[0] === pendingFrom[0] &&
          m.target.from[1] === pendingFrom[1] && m.target.to[0] === c && m.target.to[1] === r) : null;
        if (to) move = to;
        if (pendingFrom && pendingFrom[0] === c && pendingFrom[1] === r) cell.classList.add("selected");
        if (move) {
          cell.classList.add("legal");
          cell.dataset.action = move.action;
          cell.title = move.notation;
          cell.onclick = () => play(move.action);
        } else if (from.length && g.human_to_move) {
          cell.classList.add("jump-from");
          cell.title = "jump from here";
          cell.onclick = () => {
            pendingFrom = pendingFrom && pendingFrom[0] === c && pendingFrom[1] === r ? null : [c, r];
            render();
          };
        } else if (g.human_to_move) {
          cell.onclick = () => showError("not a legal move here; legal: " + g.legal.map((m) => m.notation).join(" "));
        }
        board.appendChild(cell);
      }
    }
  } else if (b.kind === "dots") {
    // A (2·rows+1) × (2·cols+1) grid of dots, edges and boxes.
    board.style.gridTemplateColumns = Array.from({ length: 2 * b.cols + 1 }, (_, i) => i % 2 ? "var(--cell)" : "12px").join(" ");
    for (let y = 0; y <= 2 * b.rows; y++) {
      for (let x = 0; x <= 2 * b.cols; x++) {
        let e;
        if (y % 2 === 0 && x % 2 === 0) e = el("div", "dot");
        else if (y % 2 === 0) {
          const r = y / 2, c = (x - 1) / 2;
          e = el("div", "edge h" + (b.h[r][c] ? " drawn" : ""));
          const m = t.edges.get("h" + r + "," + c);
          if (m) { e.classList.add("legal"); e.dataset.action = m.action; e.title = m.notation; e.onclick = () => play(m.action); }
        } else if (x % 2 === 0) {
          const r = (y - 1) / 2, c = x / 2;
          e = el("div", "edge v" + (b.v[r][c] ? " drawn" : ""));
          const m = t.edges.get("v" + r + "," + c);
          if (m) { e.classList.add("legal"); e.dataset.action = m.action; e.title = m.notation; e.onclick = () => play(m.action); }
        } else {
          const owner = b.owners[(y - 1) / 2][(x - 1) / 2];
          e = el("div", "box" + (owner != null ? " p" + owner : ""), owner != null ? g.seat_names[owner] : "");
        }
        board.appendChild(e);
      }
    }
  }
}

function drawButtons(g) {
  const div = $("legal-buttons");
  div.innerHTML = "";
  const t = targets(g);
  for (const m of t.buttons) {
    const b = el("button", "move legal", m.notation);
    b.type = "button";
    b.dataset.action = m.action;
    b.onclick = () => play(m.action);
    div.appendChild(b);
  }
}

function drawMoves(g) {
  const ol = $("moves");
  ol.innerHTML = "";
  for (const m of g.moves) {
    const who = m.seat == null ? "chance" : g.seat_names[m.seat];
    const notes = m.bar ? "  ♪ " + m.bar.notes.map(noteName).join(" ") : "";
    ol.appendChild(el("li", m.seat == null ? "chance" : "p" + m.seat, who + ": " + m.notation + notes));
  }
}

const NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"];
// The musicator's names: MIDI 60 is C2 (the paper's middle C).
function noteName(n) { return NAMES[n % 12] + (Math.floor(n / 12) - 3); }

// ---- sound --------------------------------------------------------------

function ensureAudio() {
  if (!audio && (window.AudioContext || window.webkitAudioContext)) {
    try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { audio = null; }
  }
  if (audio && audio.state === "suspended") audio.resume();
}

// Oscillator shape and envelope by General MIDI family (program / 8).
function timbre(program) {
  const f = Math.floor(program / 8);
  if (f === 2 || f === 7 || f === 10) return { type: "sawtooth", attack: 0.02, release: 0.1, level: 0.12 };
  if (f === 5 || f === 6 || f === 11) return { type: "sawtooth", attack: 0.12, release: 0.3, level: 0.1 };
  if (f === 8 || f === 9) return { type: "square", attack: 0.03, release: 0.1, level: 0.1 };
  return { type: "triangle", attack: 0.005, release: 0.3, level: 0.3, decay: true };
}

function playNewBars(g) {
  if (!$("sound").checked || !audio) { heard = g.moves.length; return; }
  const secsPerTick = 60 / g.music.tempo / g.music.ticks_per_quarter;
  for (; heard < g.moves.length; heard++) {
    const m = g.moves[heard];
    if (!m.bar || m.seat == null) continue;
    const prog = g.music.instruments[m.seat % g.music.instruments.length];
    const tb = timbre(prog);
    let t = Math.max(audio.currentTime + 0.05, nextBarAt);
    const pan = audio.createStereoPanner ? audio.createStereoPanner() : null;
    if (pan) { pan.pan.value = m.seat === 0 ? -0.5 : 0.5; pan.connect(audio.destination); }
    for (let i = 0; i < 3; i++) {
      const dur = m.bar.durations[i] * secsPerTick;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = tb.type;
      osc.frequency.value = 440 * Math.pow(2, (m.bar.notes[i] - 69) / 12);
      const peak = tb.level * m.bar.velocities[i] / 127;
      gain.gain.setValueAtTime(0, t);
      gain.gain.linearRampToValueAtTime(peak, t + tb.attack);
      if (tb.decay) gain.gain.exponentialRampToValueAtTime(peak * 0.3 + 1e-4, t + Math.max(dur, tb.attack + 0.01));
      else gain.gain.setValueAtTime(peak, t + Math.max(dur, tb.attack));
      gain.gain.linearRampToValueAtTime(0, t + dur + tb.release);
      osc.connect(gain);
      gain.connect(pan || audio.destination);
      osc.start(t);
      osc.stop(t + dur + tb.release + 0.05);
      t += dur;
    }
    nextBarAt = t;
  }
}

// ---- runs ---------------------------------------------------------------

async function showRuns() {
  const list = (await api("GET", "/runs")).runs;
  const ul = $("run-list");
  ul.innerHTML = "";
  if (!list.length) ul.appendChild(el("li", null, "No run folders yet (wopr evolve CONFIG --out runs/NAME)."));
  for (const name of list) {
    const li = el("li");
    const a = el("a", null, name);
    a.href = "#/runs/" + encodeURIComponent(name);
    li.appendChild(a);
    ul.appendChild(li);
  }
}

function fillTable(table, data, last) {
  table.innerHTML = "";
  if (!data) { table.appendChild(el("caption", null, "none yet")); return; }
  const head = el("tr");
  for (const h of data.header) head.appendChild(el("th", null, h));
  table.appendChild(head);
  // The newest rows first, at most `last` of them.
  const rows = data.rows.slice(-last).reverse();
  for (const r of rows) {
    const tr = el("tr");
    for (const v of r) tr.appendChild(el("td", null, v));
    table.appendChild(tr);
  }
}

async function showRun(name) {
  $("run-detail").hidden = false;
  try {
    const r = await api("GET", "/runs/" + encodeURIComponent(name));
    $("run-name").textContent = r.name + (r.game ? " (" + r.game + ")" : "");
    const gens = r.generations ? r.generations.rows.length : 0;
    $("run-live").textContent = (r.live ? "● live: " : "") + gens + " generations" +
      (r.live ? " (following generations.csv)" : "");
    const plots = $("run-plots");
    plots.innerHTML = "";
    for (const p of r.plots) {
      const img = el("img");
      img.src = "/api/runs/" + encodeURIComponent(name) + "/" + p + "?g=" + gens;
      img.alt = p;
      plots.appendChild(img);
    }
    fillTable($("generations"), r.generations, 200);
    fillTable($("yardsticks"), r.yardsticks, 50);
    const btn = $("play-champion");
    btn.hidden = !(r.champion && r.game);
    btn.onclick = async () => {
      location.hash = "#/play";
      $("game-spec").value = r.game;
      await loadPlayers(r.champion);
      $("custom-opponent").value = "";
      newGame();
    };
    clearTimeout(runTimer);
    runTimer = setTimeout(() => { if (location.hash === "#/runs/" + encodeURIComponent(name)) showRun(name); },
      r.live ? 2000 : 10000);
  } catch (e) {
    $("run-name").textContent = String(e.message || e);
  }
}

function route() {
  const h = location.hash || "#/play";
  const runs = h.startsWith("#/runs");
  $("play-view").hidden = runs;
  $("runs-view").hidden = !runs;
  clearTimeout(runTimer);
  if (runs) {
    showRuns();
    const name = decodeURIComponent(h.slice("#/runs/".length));
    if (h.startsWith("#/runs/") && name) showRun(name); else $("run-detail").hidden = true;
  }
}

window.addEventListener("hashchange", route);
$("new-game").onclick = newGame;
$("swap").onclick = swapSeats;
// A board to play on at once: the first game against the default opponent.
loadGames().then(() => { if (!location.hash.startsWith("#/runs")) newGame(); }).catch(showError);
route();
