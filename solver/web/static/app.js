// nhex serve: the page. The notation text is the one truth: every edit on the board is an edit of its lines,
// read back by the server (/api/read), which answers the canonical text, the board drawn as the card pictures
// draw it, and the legality gate. The analyses are the HTTP API's answers, the command line's JSON.

const DIRECTIONS = ["N", "NE", "SE", "S", "SW", "NW"];
const HEX_LINE = /^\s*([a-z][0-9]+|\(-?\d+,\s*-?\d+\))\s+(\S+:\S+)(.*)$/i;
// A hex named in an action or an event: a label of the standard board, or axial coordinates (an extended board).
const HEX_WORD = /\b([a-e][1-5])\b|(\(-?\d+,\s*-?\d+\))/g;
const hexesIn = (text) => [...text.matchAll(HEX_WORD)].map((m) => (m[1] || m[2]).replace(/\s+/g, ""));
const markQuery = (hexes) => `mark=${encodeURIComponent([...hexes].join(" "))}`;

const state = {
  text: "",
  view: null,        // the last /api/read answer for the text
  tiles: {},         // army -> [tile entries of /api/tiles]
  prizes: [],        // Babel 13's Prize marker names, in canonical order
  byKey: {},         // tile key -> entry
  army: "moloch",    // the palette shown
  tile: null,        // the tile picked for placing
  facing: "N",       // facing of the next placement
  tool: "select",
  selected: null,    // the hex of the selected unit
  battle: null,      // {outcomes, outcome, steps, step}
  record: null,      // {text, start, turns, stopped, turn}: a game record replayed turn by turn
  cardText: null,    // the card a move or a solution was played from (Back to the card)
  terrain: null,     // /api/terrain: Babel 13's types and features
  building: [],      // the hexes of the terrain element being built by the Terrain tool
  solving: null,     // AbortController of the running solve
  undo: [],          // the texts before each edit on the board, the last edit last
  redo: [],
  readSeq: 0,
};

const $ = (id) => document.getElementById(id);

// --- the server ---------------------------------------------------------------------------------------------

async function post(path, text, signal) {
  const response = await fetch(path, {method: "POST", body: text, signal,
                                      headers: {"Content-Type": "text/plain; charset=utf-8"}});
  let data = null;
  try { data = await response.json(); } catch (_) { data = null; }
  return {status: response.status, exit: response.headers.get("Nhex-Exit-Status"), data};
}

function errorText(answer) {
  const data = answer.data || {};
  if (data.located) return data.located;
  return data.message || `the server answered ${answer.status}`;
}

// --- the text and the board ---------------------------------------------------------------------------------

// Reads `text`; `canonical`: replace the pane's text by the canonical text when it reads (an edit on the board).
async function setText(text, {canonical = false, mark = []} = {}) {
  state.text = text;
  const seq = ++state.readSeq;
  const answer = await post(`/api/read?${markQuery(mark)}`, text);
  if (seq !== state.readSeq) return;  // a later edit is on its way
  if (answer.status !== 200) { showGate({error: {located: errorText(answer)}}); return; }
  const view = answer.data;
  if (canonical && view.ok) state.text = view.canonical;
  state.view = view;
  if ($("notation").value !== state.text) $("notation").value = state.text;
  history.replaceState(null, "", state.text ? `/?nhex=${encodeURIComponent(state.text)}` : "/");
  drawBoard(view.board);
  showGate(view);
  showCard(view.card);
  if (view.kind === "puzzle") state.cardText = null;
  $("back-to-card").hidden = !state.cardText;
  showRecordTab(view);
  fillToMove(view);
  fillBoardShape(view);
  syncRules(view.rules);
  showHands(view);
  showEnergy(view);
  drawPalette();
  showUnitTools();
}

function drawBoard(svg) {
  const board = $("board");
  const focused = document.activeElement?.dataset?.hex;
  board.innerHTML = svg;  // drawn by our server from the notation's values (solver/web/board.py)
  if (focused) board.querySelector(`[data-hex="${focused}"]`)?.focus();
  if (state.selected) board.querySelector(`[data-hex="${state.selected}"]`)?.classList.add("selected");
}

function showGate(view) {
  const gate = $("gate");
  gate.className = view.ok ? "ok" : "error";
  if (view.ok) {
    const units = view.units.length;
    const kind = view.kind === "puzzle" ? "puzzle card" : view.kind === "game" ? "game record (its start)" : "position";
    gate.textContent = `consistent ${kind}: ${units} unit${units === 1 ? "" : "s"}` +
      (view.to_move ? `, ${view.to_move} to move` : "");
  } else {
    gate.textContent = view.error.located;
  }
  const ok = !!view.ok;
  $("battle-btn").disabled = !ok || view.kind === "game";
  $("moves-btn").disabled = !ok || view.kind === "game" || (view.kind === "position" && !view.to_move);
  $("check-btn").disabled = !ok;
  $("solve-btn").disabled = !ok || view.kind !== "puzzle";
  $("solve-go").disabled = $("solve-btn").disabled || !!state.solving;
}

// A word about an edit the page cannot make, in the gate's place for a moment; the gate comes back as it was.
let noticed = null;
function notice(text) {
  clearTimeout(noticed);
  $("gate").className = "error";
  $("gate").textContent = text;
  noticed = setTimeout(() => state.view && showGate(state.view), 3500);
}

function showCard(card) {
  const box = $("card-info");
  $("export").hidden = !card;
  box.hidden = !card;
  $("board-area").classList.toggle("with-card", !!card);
  box.replaceChildren();
  if (!card) return;
  const title = document.createElement("h2");
  title.textContent = `${card.number != null ? card.number + " " : ""}${card.title}`;
  const facts = document.createElement("p");
  facts.textContent = `Level ${card.level ?? "—"} · ${card.player} to play · play ${card.play} of ` +
    `${card.offer.length}`;
  const offer = document.createElement("div");
  offer.className = "offer";
  for (const key of card.offer) offer.append(tileFigure(key));
  const goal = document.createElement("p");
  goal.textContent = `Goal: ${card.goal}`;
  box.append(title, facts, offer, goal);
  if (card.story) {
    const story = document.createElement("p");
    story.className = "story";
    story.textContent = card.story;
    box.append(story);
  }
  for (const button of $("export").querySelectorAll("[data-side=back]")) button.disabled = !card.has_solution;
}

function tileFigure(key) {
  const figure = document.createElement("figure");
  const img = document.createElement("img");
  img.src = `/api/tile/${encodeURIComponent(key)}.svg`;
  img.alt = state.byKey[key]?.title || key;
  const caption = document.createElement("figcaption");
  caption.textContent = state.byKey[key]?.title || key;
  figure.append(img, caption);
  return figure;
}

// --- editing the text's lines -------------------------------------------------------------------------------

function textLines() { return state.text.split("\n"); }

// Where statements go: before a puzzle's `solution` (what follows it are actions), else at the end.
function insertAt(lines) {
  const solution = lines.findIndex((line) => line.split("#")[0].trim().toLowerCase() === "solution");
  let end = solution >= 0 ? solution : lines.length;
  while (end > 0 && lines[end - 1].trim() === "") end--;
  return end;
}

function isFoundation(key) { return state.byKey[key]?.kind === "foundation"; }

// The index of the last line on `hex` of a unit (`foundation`: of a foundation tile), -1 when there is none.
function unitLine(lines, hex, {foundation = false} = {}) {
  for (let index = lines.length - 1; index >= 0; index--) {
    const m = lines[index].split("#")[0].match(HEX_LINE);
    if (m && m[1].toLowerCase() === hex && isFoundation(m[2].toLowerCase()) === foundation) return index;
  }
  return -1;
}

function edit(change) {
  if (state.view?.kind === "game") {  // its board is the replay's (the Record tab); its start is edited as text
    notice("a game record: edit its text in the Notation tab; the board shows its turns");
    return;
  }
  const lines = textLines();
  if (change(lines) === false) return;
  remember();
  setText(lines.join("\n").replace(/^\n+/, ""), {canonical: true});
}

// Undo and redo of the edits made on the board (the pane's own typing has the browser's undo).
function remember() {
  state.undo.push(state.text);
  if (state.undo.length > 200) state.undo.shift();
  state.redo = [];
  showUndo();
}

function undoRedo(from, to) {
  if (!from.length) return;
  to.push(state.text);
  setText(from.pop());
  showUndo();
}

function showUndo() {
  $("undo").disabled = !state.undo.length;
  $("redo").disabled = !state.redo.length;
}

function place(key, hex) {
  const entry = state.byKey[key];
  if (!entry || entry.kind === "instant") return;
  edit((lines) => {
    const foundation = entry.kind === "foundation";
    const at = unitLine(lines, hex, {foundation});
    // Foundations are written facing N (NOTATION §10.1); an HQ keeps N unless turned (Vegas's has edges).
    const line = `${hex} ${key} ${foundation || entry.kind === "hq" ? "N" : state.facing}`;
    if (at >= 0) lines[at] = line;
    else lines.splice(insertAt(lines), 0, line);
  });
  state.selected = hex;
}

function turnFacing(steps) {
  state.facing = DIRECTIONS[(DIRECTIONS.indexOf(state.facing) + steps + 6) % 6];
  $("facing").textContent = `Facing ${state.facing}`;
  showPlacing();
}

function rotate(hex, steps) {
  edit((lines) => {
    const at = unitLine(lines, hex);
    if (at < 0) return false;
    const words = lines[at].split("#")[0].trim().split(/\s+/);
    const has = DIRECTIONS.includes((words[2] || "").toUpperCase());
    const facing = has ? words[2].toUpperCase() : "N";
    const turned = DIRECTIONS[(DIRECTIONS.indexOf(facing) + steps + 6) % 6];
    if (has) words[2] = turned; else words.splice(2, 0, turned);
    lines[at] = words.join(" ");
    state.facing = turned;
    $("facing").textContent = `Facing ${turned}`;
  });
}

function removeAt(hex) {
  edit((lines) => {
    let at = unitLine(lines, hex);
    if (at < 0) at = unitLine(lines, hex, {foundation: true});
    if (at < 0) return false;
    lines.splice(at, 1);
  });
  state.selected = null;
}

function setAttribute(hex, name, value, fallback) {
  edit((lines) => {
    const at = unitLine(lines, hex);
    if (at < 0) return false;
    const words = lines[at].split("#")[0].trim().split(/\s+/).filter((w) => !w.toLowerCase().startsWith(name + "="));
    if (value !== "" && Number(value) !== fallback) words.push(`${name}=${Number(value)}`);
    lines[at] = words.join(" ");
  });
}

// `owner=ARMY` (a word, not a number): empty takes it off.
function setWord(hex, name, value) {
  edit((lines) => {
    const at = unitLine(lines, hex);
    if (at < 0) return false;
    const words = lines[at].split("#")[0].trim().split(/\s+/).filter((w) => !w.toLowerCase().startsWith(name + "="));
    if (value) words.push(`${name}=${value}`);
    lines[at] = words.join(" ");
  });
}

function setStatement(keyword, value) {
  edit((lines) => {
    const at = lines.findIndex((line) => line.trim().toLowerCase().startsWith(keyword + " "));
    if (!value) { if (at >= 0) lines.splice(at, 1); return; }
    if (at >= 0) lines[at] = `${keyword} ${value}`;
    else lines.splice(insertAt(lines), 0, `${keyword} ${value}`);
  });
}

function addToHand(key) {
  // A mercenary is hired into the hand of the army to move (2E: drawn "instead of a normal army tile").
  const army = key.startsWith("mercenary:") ? state.view?.to_move : key.split(":")[0];
  if (!army) { notice(`${key}: set the side to move first, whose hand it joins`); return; }
  edit((lines) => {
    const at = lines.findIndex((line) => new RegExp(`^\\s*hand\\s+${army}\\b`, "i").test(line));
    if (at >= 0) lines[at] = `${lines[at].split("#")[0].trim()} ${key}`;
    else lines.splice(insertAt(lines), 0, `hand ${army} ${key}`);
  });
}

// --- set-up controls ----------------------------------------------------------------------------------------

function unitOn(hex) { return state.view?.units.find((u) => u.hex === hex && u.kind !== "foundation"); }

function showUnitTools() {
  const unit = state.selected && unitOn(state.selected);
  $("unit-tools").hidden = !unit;
  if (!unit) return;
  $("unit-name").textContent = `${unit.hex}: ${unit.title} (${unit.army}), facing ${unit.facing}`;
  $("hp-box").hidden = unit.kind !== "hq";
  $("wounds-box").hidden = unit.kind === "hq";
  $("hp").value = unit.hp ?? 20;
  $("wounds").value = unit.wounds;
  $("venom").value = unit.venom;
  $("owner-box").hidden = unit.kind === "hq";
  const armies = Object.keys(state.tiles).filter((a) => a !== unit.tile.split(":")[0]);
  $("owner").replaceChildren(new Option(`${unit.tile.split(":")[0]} (its own)`, ""), ...armies.map((a) => new Option(a, a)));
  $("owner").value = unit.owner || "";
  $("prize-box").hidden = unit.kind === "hq";
  $("prize-1").value = unit.prizes[0] || "";
  $("prize-2").value = unit.prizes[1] || "";
}

// What a click on a hex does now, under the board (the palette may be out of view).
function showPlacing() {
  const placing = $("placing");
  const entry = state.tile && state.byKey[state.tile];
  const words = entry ? `Placing ${entry.title} (${state.army}), facing ${entry.kind === "hq" || entry.kind === "foundation" ? "N" : state.facing}: click a hex` :
    state.tool === "erase" ? "Erasing: click a unit to remove it" :
    state.tool === "terminal" ? "Terminals: click a hex to make it one, or not" :
    state.tool === "terrain" ? "Terrain: click hexes to build an element, or to take them out" : "";
  placing.hidden = !words;
  placing.textContent = words;
}

function drawPalette() {
  showPlacing();
  const armies = $("armies");
  if (!armies.childElementCount) {
    for (const army of Object.keys(state.tiles)) {
      const tab = document.createElement("button");
      tab.type = "button";
      tab.role = "tab";
      tab.dataset.army = army;
      tab.textContent = army;
      tab.addEventListener("click", () => { state.army = army; drawPalette(); });
      armies.append(tab);
    }
  }
  for (const tab of armies.children) tab.setAttribute("aria-selected", String(tab.dataset.army === state.army));
  const used = state.view?.used || {};
  const palette = $("palette");
  palette.replaceChildren();
  for (const entry of state.tiles[state.army] || []) {
    const left = entry.count - (used[entry.tile] || 0);
    const item = document.createElement("div");
    item.className = "tile" + (state.tile === entry.tile ? " picked" : "") + (left <= 0 ? " spent" : "");
    const pick = document.createElement("button");
    pick.type = "button";
    pick.className = "pick";
    pick.dataset.tile = entry.tile;
    pick.setAttribute("aria-pressed", String(state.tile === entry.tile));
    pick.title = entry.kind === "instant" ? `${entry.title}: an instant, played from a hand` : `place ${entry.title}`;
    pick.disabled = entry.kind === "instant";
    const img = document.createElement("img");
    img.src = `/api/tile/${encodeURIComponent(entry.tile)}.svg`;
    img.alt = "";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = entry.title;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = `${left}/${entry.count}`;
    count.title = `${left} of ${entry.count} left`;
    pick.append(img, name, count);
    pick.draggable = entry.kind !== "instant";
    pick.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", entry.tile));
    pick.addEventListener("click", () => {
      state.tile = state.tile === entry.tile ? null : entry.tile;
      setTool("select");
      drawPalette();
      if (state.tile) showBoard();  // on a phone the palette is under the board: the next tap is on a hex
    });
    const hand = document.createElement("button");
    hand.type = "button";
    hand.className = "to-hand";
    hand.textContent = "+";
    hand.title = `add ${entry.title} to ${state.army}'s hand`;
    hand.setAttribute("aria-label", hand.title);
    hand.addEventListener("click", () => addToHand(entry.tile));
    item.append(pick, hand);
    palette.append(item);
  }
}

function fillToMove(view) {
  const select = $("to-move");
  const armies = [...new Set(view.units.filter((u) => u.army !== "mercenary").map((u) => u.army))].sort();
  if (view.to_move && !armies.includes(view.to_move)) armies.push(view.to_move);
  select.replaceChildren(new Option("—", ""), ...armies.map((a) => new Option(a, a)));
  select.value = view.to_move || "";
  select.disabled = view.kind === "puzzle";
}

function fillBoardShape(view) {
  const line = textLines().find((l) => /^\s*board\s+/i.test(l));
  $("board-shape").value = view.ok ? view.board_shape : line && /extended/i.test(line) ? "extended" : "standard";
}

// The rule selects follow the text's `rules` line, so that what they show is what the text says.
function syncRules(line) {
  const words = (line || "rules 3.0").split(/\s+/).slice(1);
  $("edition").value = words[0] || "3.0";
  const chosen = Object.fromEntries(words.slice(1).map((w) => w.split("=")));
  for (const select of $("rules").querySelectorAll("select")) select.value = chosen[select.dataset.option] ?? "";
}

function showHands(view) {
  const box = $("hands");
  box.replaceChildren();
  for (const [army, keys] of view.hands || []) {
    const row = document.createElement("div");
    row.className = "hand";
    row.append(`${army}'s hand: `);
    keys.forEach((key, index) => {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "chip";
      chip.textContent = `${state.byKey[key]?.title || key} ×`;
      chip.title = `take ${key} out of the hand`;
      chip.addEventListener("click", () => removeFromHand(army, index));
      row.append(chip);
    });
    box.append(row);
  }
}

function removeFromHand(army, index) {
  edit((lines) => {
    const at = lines.findIndex((line) => new RegExp(`^\\s*hand\\s+${army}(\\s|$)`, "i").test(line));
    if (at < 0) return false;
    const words = lines[at].split("#")[0].trim().split(/\s+/);
    words.splice(2 + index, 1);
    if (words.length > 2) lines[at] = words.join(" "); else lines.splice(at, 1);
  });
}

// Energy Points (NOTATION §10.2) once the board has Terminals: one field an army, 0 to 5.
function showEnergy(view) {
  const box = $("energy");
  box.hidden = !(view.terminals || []).length;
  box.replaceChildren();
  if (box.hidden) return;
  const armies = [...new Set(view.units.filter((u) => u.kind === "hq").map((u) => u.army))].sort();
  for (const army of armies) {
    const label = document.createElement("label");
    label.append(`${army} Energy `);
    const input = document.createElement("input");
    input.type = "number"; input.min = "0"; input.max = "5"; input.value = view.energy[army] ?? 0;
    input.dataset.army = army;
    input.addEventListener("change", () => setEnergy(army, input.value));
    label.append(input);
    box.append(label);
  }
}

function setEnergy(army, value) {
  edit((lines) => {
    const pattern = new RegExp(`^\\s*energy\\s+${army}\\s`, "i");
    const at = lines.findIndex((line) => pattern.test(line));
    const line = Number(value) ? `energy ${army} ${Number(value)}` : null;
    if (at >= 0) { if (line) lines[at] = line; else lines.splice(at, 1); }
    else if (line) lines.splice(insertAt(lines), 0, line);
  });
}

// --- Babel 13 terrain: one `terrain TYPE FEATURE,… HEX …` line an element (NOTATION §10.3) ---

async function loadTerrain() {
  state.terrain = await fetch("/api/terrain").then((r) => r.json());
  $("terrain-type").replaceChildren(...Object.keys(state.terrain.types).map((t) => new Option(t, t)));
  $("terrain-type").addEventListener("change", () => { state.building = []; showFeatures(); });
  showFeatures();
}

function showFeatures() {
  const type = $("terrain-type").value;
  const compulsory = state.terrain.compulsory[type] || [];
  const box = $("terrain-features");
  box.replaceChildren();
  for (const feature of [...compulsory, ...state.terrain.types[type]]) {
    const label = document.createElement("label");
    const box_ = document.createElement("input");
    box_.type = "checkbox";
    box_.value = feature;
    box_.checked = compulsory.includes(feature);
    box_.disabled = compulsory.includes(feature);
    box_.addEventListener("change", () => { state.building = []; });
    label.append(box_, ` ${feature}`);
    box.append(label);
  }
}

function terrainLine(line) {
  const words = line.split("#")[0].trim().split(/\s+/);
  if (words[0]?.toLowerCase() !== "terrain") return null;
  return {type: words[1], features: (words[2] || "").split(","), hexes: words.slice(3).filter((w) => !w.includes("="))};
}

// A hex in an element is taken out of it; another joins the element being built (a new one when the type or the
// features change, or after New element).
function terrainAt(hex) {
  const type = $("terrain-type").value;
  const features = [...$("terrain-features").querySelectorAll("input:checked")].map((i) => i.value);
  if (!features.length) { notice(`terrain ${type}: choose at least one feature`); return; }
  edit((lines) => {
    const holding = lines.findIndex((line) => terrainLine(line)?.hexes.includes(hex));
    if (holding >= 0) {
      const words = lines[holding].split("#")[0].trim().split(/\s+/).filter((w) => w !== hex);
      if (terrainLine(words.join(" ")).hexes.length) lines[holding] = words.join(" "); else lines.splice(holding, 1);
      state.building = state.building.filter((h) => h !== hex);
      return;
    }
    const same = (t) => t && t.type === type && t.features.slice().sort().join() === features.slice().sort().join();
    const growing = state.building.length
      ? lines.findIndex((line) => same(terrainLine(line)) && state.building.every((h) => terrainLine(line).hexes.includes(h)))
      : -1;
    if (growing >= 0) {
      const words = lines[growing].split("#")[0].trim().split(/\s+/);
      words.splice(3 + terrainLine(lines[growing]).hexes.length, 0, hex);
      lines[growing] = words.join(" ");
    } else {
      lines.splice(insertAt(lines), 0, `terrain ${type} ${features.join(",")} ${hex}`);
      state.building = [];
    }
    state.building.push(hex);
  });
}

function toggleTerminal(hex) {
  edit((lines) => {
    const at = lines.findIndex((line) => /^\s*terminals\b/i.test(line));
    const hexes = at >= 0 ? lines[at].split("#")[0].trim().split(/\s+/).slice(1) : [];
    const next = hexes.includes(hex) ? hexes.filter((h) => h !== hex) : [...hexes, hex];
    const line = next.length ? `terminals ${next.join(" ")}` : null;
    if (at >= 0) { if (line) lines[at] = line; else lines.splice(at, 1); }
    else if (line) lines.splice(insertAt(lines), 0, line);
  });
}

async function loadRules() {
  const answer = await fetch("/api/rules").then((r) => r.json());
  const box = $("rules");
  for (const option of answer) {
    const label = document.createElement("label");
    label.title = option.summary;
    label.append(`${option.name} `);
    const select = document.createElement("select");
    select.dataset.option = option.name;
    select.append(new Option(`default (${option.editions["3.0"].default})`, ""),
                  ...option.choices.map((c) => new Option(c, c)));
    select.addEventListener("change", writeRules);
    label.append(select);
    box.append(label);
  }
}

function writeRules() {
  const chosen = [...$("rules").querySelectorAll("select")].filter((s) => s.value)
    .map((s) => `${s.dataset.option}=${s.value}`);
  const edition = $("edition").value;
  setStatement("rules", edition === "3.0" && !chosen.length ? "" : [edition, ...chosen].join(" "));
}

function setTool(tool) {
  state.tool = tool;
  for (const [id, name] of [["tool-select", "select"], ["tool-erase", "erase"], ["tool-terminal", "terminal"],
                            ["tool-terrain", "terrain"]]) {
    $(id).classList.toggle("on", tool === name);
    $(id).setAttribute("aria-pressed", String(tool === name));
  }
  if (tool !== "select") { state.tile = null; drawPalette(); }
  $("terrain-tools").hidden = tool !== "terrain";
  showPlacing();
  state.building = [];
}

function clickHex(hex) {
  if (state.tool === "erase") { removeAt(hex); return; }
  if (state.tool === "terminal") { toggleTerminal(hex); return; }
  if (state.tool === "terrain") { terrainAt(hex); return; }
  if (state.tile) { place(state.tile, hex); return; }
  state.selected = unitOn(hex) ? hex : null;
  for (const el of $("board").querySelectorAll(".hex.selected")) el.classList.remove("selected");
  if (state.selected) $("board").querySelector(`[data-hex="${hex}"]`)?.classList.add("selected");
  showUnitTools();
}

// --- tabs ---------------------------------------------------------------------------------------------------

function showTab(name) {
  for (const tab of document.querySelectorAll("[data-tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  }
  for (const panel of document.querySelectorAll(".tab")) panel.hidden = panel.id !== `tab-${name}`;
}

// --- battle -------------------------------------------------------------------------------------------------

async function battle() {
  showTab("battle");
  const before = state.text;
  $("events").replaceChildren(message("resolving…"));
  const answer = await post("/api/battle?trace=1", before);
  if (answer.status !== 200) { $("events").replaceChildren(message(errorText(answer), "error")); return; }
  const replayed = await post("/api/steps", before);  // the engine's board after each phase, where it has one
  const boards = replayed.status === 200 ? replayed.data.outcomes : [];
  state.battle = {before, units: state.view.units, outcomes: answer.data.outcomes, boards, outcome: 0, step: 0};
  showOutcomes();
  chooseOutcome(0);
}

// The engine's board at a step, when the battle could be played again along the outcome's choices: after the
// battle's start, or after the step's phase (a phase with events but no landing: the board before it).
function replayedBoard(b, step) {
  const boards = b.boards[b.outcome]?.boards;
  if (!boards || step.key === "end") return null;
  if (step.key === "start") return boards[0]?.text ?? null;
  const phase = Number(step.key.split(" ")[1]);
  const after = boards.filter((board) => board.phase === null || board.phase >= phase);
  return after.length ? after[after.length - 1].text : null;
}

function showOutcomes() {
  const box = $("outcomes");
  const outcomes = state.battle.outcomes;
  box.replaceChildren();
  const head = document.createElement("p");
  head.textContent = outcomes.length === 1 ? "One end: the battle is fully determined."
    : `${outcomes.length} distinct ends, by the players' choices:`;
  box.append(head);
  outcomes.forEach((outcome, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "outcome";
    const hq = Object.entries(outcome.hq).map(([army, hp]) => `${army} ${hp}`).join(", ");
    button.textContent = `End ${index + 1}: HQ ${hq}` + (outcome.choices.length ? ` — ${outcome.choices.join("; ")}` : "");
    button.addEventListener("click", () => chooseOutcome(index));
    box.append(button);
  });
}

// The steps of one outcome: the start (nets, initiatives), each initiative phase, then the board after.
function battleSteps(outcome) {
  const steps = [];
  let current = null;
  for (const event of outcome.trace) {
    const key = event.phase === null ? (current ? current.key : "start") : `phase ${event.phase}`;
    if (!current || current.key !== key) {
      current = {key, title: event.phase === null ? "Before the battle" : `Initiative phase ${event.phase}`, events: []};
      steps.push(current);
    }
    current.events.push(event);
  }
  steps.push({key: "end", title: "After the battle", events: []});
  return steps;
}

function chooseOutcome(index) {
  const b = state.battle;
  b.outcome = index;
  b.steps = battleSteps(b.outcomes[index]);
  for (const [i, el] of [...$("outcomes").querySelectorAll(".outcome")].entries()) el.classList.toggle("on", i === index);
  showStep(0);
}

// The board at a step: the units dead so far taken off and the HQs' health as the trace states it; at the end,
// the outcome's own board (wounds included).
function stepText(b, upTo) {
  const outcome = b.outcomes[b.outcome];
  const head = b.before.split("\n");
  const cut = insertAt(head);
  const other = head.slice(0, cut).filter((line) => !HEX_LINE.test(line.split("#")[0]) && !/^\s*(solution|explanation)\b/i.test(line));
  if (upTo === b.steps.length - 1) {
    const units = Object.entries(outcome.units).map(([hex, u]) => {
      const army = u.tile.split(":")[0];
      const hp = u.tile.endsWith(":hq") && outcome.hq[army] !== undefined ? ` hp=${outcome.hq[army]}` : "";
      return `${hex} ${u.tile} ${u.facing}${hp}${u.wounds ? ` wounds=${u.wounds}` : ""}${u.venom ? ` venom=${u.venom}` : ""}`;
    });
    const foundations = Object.entries(outcome.foundations || {}).map(([hex, tile]) => `${hex} ${tile} N`);
    return [...other, ...units, ...foundations].join("\n");
  }
  const dead = new Set();
  const health = {};
  for (const step of b.steps.slice(0, upTo + 1)) {
    for (const event of step.events) {
      const died = event.kind === "death" && event.text.match(/ on ([a-e][1-5]|\(-?\d+,-?\d+\)) dies/);
      if (died) dead.add(died[1]);
      const spent = event.kind === "medic" && event.text.match(/the Medic on ([a-e][1-5]|\(-?\d+,-?\d+\)) is discarded/);
      if (spent) dead.add(spent[1]);
      const hq = event.kind === "hq" && event.text.match(/^(\S+):hq loses \d+: health (\d+)/);
      if (hq) health[hq[1]] = Number(hq[2]);
    }
  }
  const lines = head.slice(0, cut).filter((line) => {
    const m = line.split("#")[0].match(HEX_LINE);
    return !(m && dead.has(m[1].toLowerCase()) && !isFoundation(m[2].toLowerCase()));
  }).map((line) => {
    const m = line.split("#")[0].match(HEX_LINE);
    const army = m && m[2].toLowerCase().endsWith(":hq") ? m[2].toLowerCase().split(":")[0] : null;
    if (army === null || health[army] === undefined) return line;
    if (health[army] <= 0) return "";
    return line.split("#")[0].replace(/\s+hp=\d+/i, "") + ` hp=${health[army]}`;
  });
  return lines.filter((line) => !/^\s*(solution|explanation)\b/i.test(line)).join("\n");
}

async function showStep(index) {
  const b = state.battle;
  if (!b) return;
  b.step = Math.max(0, Math.min(index, b.steps.length - 1));
  const step = b.steps[b.step];
  $("step-label").textContent = `${step.title} (${b.step + 1}/${b.steps.length})`;
  const list = $("events");
  list.replaceChildren();
  for (const event of step.events) {
    const item = document.createElement("li");
    item.className = `event ${event.kind}`;
    const text = document.createElement("span");
    text.textContent = event.text;
    item.append(text);
    if (event.how) { const how = document.createElement("span"); how.className = "how"; how.textContent = ` (${event.how})`; item.append(how); }
    const rule = document.createElement("cite");
    rule.textContent = event.rule;
    item.append(" ", rule);
    list.append(item);
  }
  if (step.key === "end") {
    const outcome = b.outcomes[b.outcome];
    list.append(listItem(`HQ: ${Object.entries(outcome.hq).map(([a, hp]) => `${a} ${hp}`).join(", ")}`, "end"));
  } else if (b.step > 0 && !replayedBoard(b, step)) {
    list.append(listItem("On the board: the units dead so far taken off and the HQs' health as stated; the wounds " +
                         "of the survivors show on the last step.", "note"));
  }
  const marked = new Set();
  for (const event of step.events) for (const hex of hexesIn(event.text)) marked.add(hex);
  const text = replayedBoard(b, step) ?? stepText(b, b.step);
  const view = (await post(`/api/read?${markQuery(marked)}`, text)).data;
  if (state.battle === b && view) drawBoard(view.board);
}

function listItem(text, kind) {
  const item = document.createElement("li");
  item.className = kind;
  item.textContent = text;
  return item;
}

// On a phone the board is above the panel just used: bring it into view when it changes because of the panel.
function showBoard() {
  const top = $("board").getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight * 0.6) $("board").scrollIntoView({behavior: "smooth", block: "start"});
}

function message(text, kind = "") {
  const p = document.createElement("p");
  p.className = kind;
  p.textContent = text;
  return p;
}

// --- moves --------------------------------------------------------------------------------------------------

async function moves({keepNote = false} = {}) {
  showTab("moves");
  if (!keepNote) $("choices").replaceChildren();
  $("moves").replaceChildren(message("listing…"));
  const answer = await post("/api/moves", state.text);
  if (answer.status !== 200) { $("moves").replaceChildren(message(errorText(answer), "error")); return; }
  const lines = answer.data;
  $("moves-summary").textContent = `${lines.length} legal action${lines.length === 1 ? "" : "s"} for ` +
    `${state.view.kind === "puzzle" ? state.view.card.player : state.view.to_move}; click one to play it.`;
  const groups = new Map();
  for (const line of lines) {
    const words = line.split(" ");
    const group = `${words[0]} ${words[0] === "move" ? "" : words[1] || ""}`.trim();
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(line);
  }
  const box = $("moves");
  box.replaceChildren();
  for (const [group, members] of groups) {
    const details = document.createElement("details");
    details.open = groups.size <= 3;
    const summary = document.createElement("summary");
    summary.textContent = `${group} (${members.length})`;
    details.append(summary);
    for (const line of members) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.textContent = line;
      button.addEventListener("click", () => applyMove(line));
      details.append(button);
    }
    box.append(details);
  }
}

function leavingTheCard() {
  if (state.view?.kind === "puzzle") state.cardText = state.text;
}

async function applyMove(line) {
  const answer = await post(`/api/apply?action=${encodeURIComponent(line)}`, state.text);
  if (answer.status !== 200 || !answer.data.results) {
    $("choices").replaceChildren(message(answer.data?.rule ? `${line}: illegal: ${answer.data.rule}` : errorText(answer), "error"));
    return;
  }
  const results = answer.data.results;
  const marked = hexesIn(line);
  leavingTheCard();
  if (results.length === 1) {
    await setText(results[0].text, {canonical: true, mark: marked});
    showBoard();
    $("choices").replaceChildren(message(`played: ${line}` + (results[0].battle ? " — a battle follows (Battle)" : "")));
    moves({keepNote: true});
    return;
  }
  const box = $("choices");
  box.replaceChildren(message(`${line}: the other player chooses:`));
  for (const result of results) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = result.choice;
    button.addEventListener("click", async () => {
      await setText(result.text, {canonical: true, mark: marked});
      $("choices").replaceChildren(message(`played: ${line}, ${result.choice}`));
      moves({keepNote: true});
    });
    box.append(button);
  }
}

// --- solve --------------------------------------------------------------------------------------------------

async function solve() {
  showTab("solve");
  if (state.solving) return;
  const seconds = Math.max(1, Math.min(120, Number($("solve-time").value) || 20));
  const controller = new AbortController();
  state.solving = controller;
  const card = state.text;
  $("solve-go").disabled = true;
  $("solve-stop").disabled = false;
  $("solve-progress").hidden = false;
  $("solve-bar").removeAttribute("value");
  $("solve-stage").textContent = "starting…";
  $("verdict").replaceChildren();
  $("solutions").replaceChildren();
  const started = performance.now();
  try {
    const response = await fetch(`/api/solve?progress=1&max_time=${seconds}`, {method: "POST", body: card, signal: controller.signal,
                                                                                headers: {"Content-Type": "text/plain; charset=utf-8"}});
    if (!response.ok) {
      let data = null;
      try { data = await response.json(); } catch (_) { data = null; }
      $("verdict").replaceChildren(message(errorText({status: response.status, data}), "error"));
      return;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (done) break;
      buffer += value;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        if (line.progress) showProgress(line.progress, started);
        else showSolution(line, card);
      }
    }
  } catch (error) {
    if (error.name === "AbortError") $("verdict").replaceChildren(message("stopped: nothing proven"));
    else $("verdict").replaceChildren(message(String(error), "error"));
  } finally {
    state.solving = null;
    $("solve-go").disabled = $("solve-btn").disabled;
    $("solve-stop").disabled = true;
    $("solve-progress").hidden = true;
  }
}

function showProgress(progress, started) {
  const bar = $("solve-bar");
  if (progress.total) { bar.max = progress.total; bar.value = progress.done; } else bar.removeAttribute("value");
  const stage = progress.stage === "enumerate" ? "enumerating plays" : "playing out positions";
  $("solve-stage").textContent = `${stage}: ${progress.done}${progress.total ? "/" + progress.total : ""} · ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s`;
}

function showSolution(line, card) {
  if (line.error) { $("verdict").replaceChildren(message(line.error.located || line.error.message, "error")); return; }
  const result = line.result;
  const verdict = result.solved ? result.verdict.toUpperCase() : "STOPPED";
  const words = result.solved
    ? `${verdict}: ${result.solutions.length} winning play${result.solutions.length === 1 ? "" : "s"}, proven over ${result.searched} plays`
    : `${verdict} (${result.stopped}): ${result.found?.length || 0} winning play(s) found so far, nothing proven`;
  $("verdict").replaceChildren(message(words, result.solved ? (result.verdict === "sound" ? "ok" : "") : "warn"));
  if (result.intended_solution_found !== undefined) {
    $("verdict").append(message(result.intended_solution_found ? "The card's own solution is among them."
                                                               : "The card's own solution is not among them.",
                                result.intended_solution_found ? "" : "error"));
  }
  const box = $("solutions");
  box.replaceChildren();
  const plays = result.solved ? result.solutions : result.found || [];
  plays.forEach((play, index) => box.append(playBlock(play, `Solution ${index + 1}`, card, "solution")));
  for (const [index, attempt] of (result.tries || []).entries()) box.append(playBlock(attempt, `Try ${index + 1}`, card, "try"));
}

function playBlock(play, title, card, kind) {
  const block = document.createElement("article");
  block.className = kind;
  const head = document.createElement("h3");
  head.textContent = `${title}: ${play.actions.join("; ")}`;
  block.append(head);
  if (play.why) block.append(message(`${kind === "try" ? "Why it fails" : "Why it wins"}: ${play.why}`));
  if (play.duals?.length) block.append(message(`Also by ${play.duals.length} other order${play.duals.length === 1 ? "" : "s"} or facing${play.duals.length === 1 ? "" : "s"} (duals): ${play.duals.slice(0, 3).map((d) => Array.isArray(d) ? d.join("; ") : d).join(" · ")}${play.duals.length > 3 ? " …" : ""}`));
  if (play.hq) block.append(message(`HQ after: ${Object.entries(play.hq).map(([a, hp]) => `${a} ${hp}`).join(", ")}`));
  const show = document.createElement("button");
  show.type = "button";
  show.className = "show-play";
  show.textContent = "Play it on the board";
  show.addEventListener("click", () => playOnBoard(card, play.actions));
  block.append(show);
  return block;
}

// Plays the actions one by one from the card (the first result of each: the solver's worst case is in its JSON),
// then shows the board with the tiles they touch outlined.
async function playOnBoard(card, actions) {
  let text = card;
  for (const action of actions) {
    const answer = await post(`/api/apply?action=${encodeURIComponent(action)}`, text);
    if (answer.status !== 200 || !answer.data.results) {
      $("verdict").append(message(`${action}: ${answer.data?.rule || errorText(answer)}`, "error"));
      return;
    }
    text = answer.data.results[0].text;
  }
  const marked = actions.flatMap(hexesIn);
  if (state.text === card) leavingTheCard();
  await setText(text, {canonical: true, mark: marked});
  showBoard();
  $("verdict").append(message(`on the board: ${actions.join("; ")} — press Battle to see it resolved`));
}

// --- game records ------------------------------------------------------------------------------------------

function showRecordTab(view) {
  const tab = document.querySelector("[data-tab=record]");
  tab.hidden = view.kind !== "game";
  if (view.kind !== "game") { state.record = null; if (!$("tab-record").hidden) showTab("notation"); return; }
  if (view.ok && state.record?.text !== state.text) loadRecord();
}

async function loadRecord() {
  const text = state.text;
  state.record = {text, start: null, turns: [], stopped: null, turn: 0};
  const answer = await post("/api/record", text);
  if (state.record?.text !== text) return;
  if (answer.status !== 200) { $("turn-detail").replaceChildren(message(errorText(answer), "error")); return; }
  Object.assign(state.record, answer.data);
  showTab("record");
  showTurn(state.record.turns.length);
}

// Turn 0 is the start; turn k the board after the k-th turn line of the record.
async function showTurn(index) {
  const r = state.record;
  if (!r || r.start === null) return;
  r.turn = Math.max(0, Math.min(index, r.turns.length));
  const turn = r.turns[r.turn - 1];
  $("turn-label").textContent = turn ? `Turn ${turn.number}: ${turn.army} (${r.turn}/${r.turns.length})`
    : `The start (0/${r.turns.length})`;
  const detail = $("turn-detail");
  detail.replaceChildren();
  if (turn) {
    const list = document.createElement("ol");
    list.id = "turn-actions";
    for (const action of turn.actions) { const item = document.createElement("li"); item.textContent = action; list.append(item); }
    detail.append(list);
    for (const event of turn.events) detail.append(message(event, "event"));
    detail.append(message(`HQ: ${Object.entries(turn.hq).map(([a, hp]) => `${a} ${hp}`).join(", ")} · line ${turn.line}`));
  }
  if (r.stopped && r.turn === r.turns.length) {
    detail.append(message(`turn ${r.stopped.number} (line ${r.stopped.line}) cannot be played: ${r.stopped.message}`, "error"));
  }
  const marked = turn ? turn.actions.flatMap(hexesIn) : [];
  const view = (await post(`/api/read?${markQuery(marked)}`, turn ? turn.text : r.start)).data;
  if (state.record === r && view) drawBoard(view.board);
}

// --- notation pane ------------------------------------------------------------------------------------------

let typing = null;
function onTyping() {
  clearTimeout(typing);
  typing = setTimeout(() => setText($("notation").value), 250);
}

async function copy(text, button) {
  try { await navigator.clipboard.writeText(text); button.textContent = "Copied"; }
  catch (_) { button.textContent = "Copy failed"; }
  setTimeout(() => { button.textContent = button.dataset.label; }, 1200);
}

function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function fileName(extension) {
  const card = state.view?.card;
  const base = card ? `${card.number ?? "card"}-${card.title}`.toLowerCase().replace(/[^a-z0-9]+/g, "-") : "position";
  return `${base}.${extension}`;
}

async function exportCard(side, format) {
  const response = await fetch(`/api/card?side=${side}&format=${format}`, {method: "POST", body: state.text});
  if (!response.ok) { $("check-result").replaceChildren(message(errorText({status: response.status, data: await response.json()}), "error")); return; }
  download(await response.blob(), fileName(`${side}.${format}`));
}

async function exportBoard(format) {
  const response = await fetch(`/api/board?format=${format}`, {method: "POST", body: state.text});
  if (!response.ok) { $("check-result").replaceChildren(message(errorText({status: response.status, data: await response.json()}), "error")); return; }
  download(await response.blob(), fileName(`board.${format}`));
}

async function check() {
  showTab("notation");
  const answer = await post("/api/check", state.text);
  const box = $("check-result");
  if (answer.status !== 200) { box.replaceChildren(message(errorText(answer), "error")); return; }
  const data = answer.data;
  const words = [`check: ${data.verdict}`];
  if (data.line) words.push(`at line ${data.line}: ${data.action}: ${data.rule}`);
  if (data.turns !== undefined) words.push(`${data.turns} turns, ${data.battles} battles`);
  if (data.hq) words.push(`HQ ${Object.entries(data.hq).map(([a, hp]) => `${a} ${hp}`).join(", ")}`);
  if (data.over) words.push(data.draw ? "a draw" : `winner: ${data.winner}`);
  box.replaceChildren(message(words.join(" · "), answer.exit === "0" ? "ok" : "error"));
}

// --- start --------------------------------------------------------------------------------------------------

function wire() {
  $("board").addEventListener("click", (event) => {
    const hex = event.target.closest("[data-hex]");
    if (hex) clickHex(hex.dataset.hex);
  });
  $("board").addEventListener("keydown", (event) => {  // a hex has the focus (Tab): Enter or Space is a click
    const hex = event.target.closest?.("[data-hex]");
    if (hex && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); event.stopPropagation(); clickHex(hex.dataset.hex); }
  });
  $("notation").addEventListener("input", onTyping);
  $("format-btn").addEventListener("click", () => setText($("notation").value, {canonical: true}));
  for (const id of ["copy-btn", "link-btn"]) $(id).dataset.label = $(id).textContent;
  $("copy-btn").addEventListener("click", (e) => copy(state.text, e.target));
  $("link-btn").addEventListener("click", (e) => copy(location.href, e.target));
  $("save-btn").addEventListener("click", () => download(new Blob([state.text], {type: "text/plain"}), fileName("nhex")));
  $("clear-btn").addEventListener("click", () => { state.selected = null; setText(""); });
  for (const button of $("export").querySelectorAll("button")) {
    button.addEventListener("click", () => exportCard(button.dataset.side, button.dataset.format));
  }
  for (const button of $("board-export").querySelectorAll("button")) {
    button.addEventListener("click", () => exportBoard(button.dataset.format));
  }
  $("rotate-left").addEventListener("click", () => state.selected && rotate(state.selected, -1));
  $("rotate-right").addEventListener("click", () => state.selected && rotate(state.selected, 1));
  $("remove").addEventListener("click", () => state.selected && removeAt(state.selected));
  $("hp").addEventListener("change", () => state.selected && setAttribute(state.selected, "hp", $("hp").value, 20));
  $("wounds").addEventListener("change", () => state.selected && setAttribute(state.selected, "wounds", $("wounds").value, 0));
  $("venom").addEventListener("change", () => state.selected && setAttribute(state.selected, "venom", $("venom").value, 0));
  $("owner").addEventListener("change", () => state.selected && setWord(state.selected, "owner", $("owner").value));
  for (const id of ["prize-1", "prize-2"]) {
    $(id).addEventListener("change", () => state.selected && setWord(state.selected, "prize",
      [$("prize-1").value, $("prize-2").value].filter(Boolean).join(",")));
  }
  $("tool-terminal").addEventListener("click", () => setTool("terminal"));
  $("facing").addEventListener("click", () => turnFacing(1));
  $("undo").addEventListener("click", () => undoRedo(state.undo, state.redo));
  $("redo").addEventListener("click", () => undoRedo(state.redo, state.undo));
  $("tool-terrain").addEventListener("click", () => setTool("terrain"));
  $("terrain-new").addEventListener("click", () => { state.building = []; });
  $("board").addEventListener("dragover", (event) => event.preventDefault());
  $("board").addEventListener("drop", (event) => {
    event.preventDefault();
    const key = event.dataTransfer.getData("text/plain");
    const hex = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-hex]");
    if (key && hex) place(key, hex.dataset.hex);
  });
  $("tool-select").addEventListener("click", () => setTool("select"));
  $("tool-erase").addEventListener("click", () => setTool("erase"));
  $("board-shape").addEventListener("change", (e) => setStatement("board", e.target.value === "standard" ? "" : e.target.value));
  $("to-move").addEventListener("change", (e) => setStatement("to-move", e.target.value));
  $("edition").addEventListener("change", writeRules);
  for (const tab of document.querySelectorAll("[data-tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("battle-btn").addEventListener("click", battle);
  $("moves-btn").addEventListener("click", () => moves());
  $("check-btn").addEventListener("click", check);
  $("solve-btn").addEventListener("click", () => showTab("solve"));
  $("solve-go").addEventListener("click", solve);
  $("solve-stop").addEventListener("click", () => state.solving?.abort());
  $("turn-first").addEventListener("click", () => showTurn(0));
  $("turn-prev").addEventListener("click", () => showTurn((state.record?.turn ?? 0) - 1));
  $("turn-next").addEventListener("click", () => showTurn((state.record?.turn ?? 0) + 1));
  $("turn-last").addEventListener("click", () => showTurn(Infinity));
  $("back-to-card").addEventListener("click", () => { const card = state.cardText; state.cardText = null; setText(card); });
  $("step-first").addEventListener("click", () => showStep(0));
  $("step-prev").addEventListener("click", () => showStep((state.battle?.step ?? 0) - 1));
  $("step-next").addEventListener("click", () => showStep((state.battle?.step ?? 0) + 1));
  $("step-last").addEventListener("click", () => showStep(Infinity));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("textarea, input, select") || event.altKey) return;
    const key = event.key;
    if ((event.ctrlKey || event.metaKey) && (key === "z" || key === "Z" || key === "y")) {
      if (key === "z" && !event.shiftKey) undoRedo(state.undo, state.redo); else undoRedo(state.redo, state.undo);
      event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey) return;
    if (key === "r" || key === "R") { if (state.selected) rotate(state.selected, event.shiftKey ? -1 : 1); else turnFacing(event.shiftKey ? -1 : 1); }
    else if ((key === "Delete" || key === "Backspace") && state.selected) removeAt(state.selected);
    else if (key === "Escape") { state.selected = null; state.tile = null; setTool("select"); drawPalette(); clickHex(""); }
    else if (key === "b" && !$("battle-btn").disabled) battle();
    else if (key === "m" && !$("moves-btn").disabled) moves();
    else if (key === "ArrowRight" && state.battle && !$("tab-battle").hidden) showStep(state.battle.step + 1);
    else if (key === "ArrowLeft" && state.battle && !$("tab-battle").hidden) showStep(state.battle.step - 1);
    else if (key === "ArrowRight" && state.record && !$("tab-record").hidden) showTurn(state.record.turn + 1);
    else if (key === "ArrowLeft" && state.record && !$("tab-record").hidden) showTurn(state.record.turn - 1);
    else return;
    event.preventDefault();
  });
}

async function start() {
  wire();
  const listed = await fetch("/api/tiles").then((r) => r.json());
  state.tiles = listed.armies;
  state.prizes = listed.prizes;
  for (const id of ["prize-1", "prize-2"]) $(id).replaceChildren(new Option("—", ""), ...state.prizes.map((p) => new Option(p, p)));
  for (const entries of Object.values(state.tiles)) for (const entry of entries) state.byKey[entry.tile] = entry;
  loadRules();
  loadTerrain();
  const given = new URLSearchParams(location.search).get("nhex");
  await setText(given ?? "");
  // The palette opens on the army to move (a card's player), the one whose tiles are placed first.
  const army = (state.view?.to_move || "").split("/")[0];
  if (state.tiles[army]) { state.army = army; drawPalette(); }
}

start();
