// soloscope table page: draws the board view model (table inches) and sends the player's commands.
// Live updates arrive as server-sent events from /events: "view" (the whole view as JSON, its
// version as the event id) and "frame" (a new camera frame is at /frame.jpg).
"use strict";

(() => {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const state = {
    view: null,
    version: 0,
    selectedUnit: null,
    declareAction: null,
    promptKey: "",
    frameVersion: 0,
    frameLoading: false,
    frameWanted: 0,
    frameBounds: null,
    wantedBounds: null,
    // Set when the live feed reconnects: soloscope may have restarted and count from 1 again.
    renumbered: false,
    frameGeneration: 0,
    // A piece being placed by hand: {unitId, x, y, heading} in table inches and degrees.
    placing: null,
  };
  window.soloscope = { state };

  const $ = (id) => document.getElementById(id);

  // Right-to-left overrides and the other bidirectional controls are taken out of every text
  // the view brings (names come from scenario files): "\u202Eevil" would show as "live".
  const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
  const parseView = (text) =>
    JSON.parse(text, (key, value) => (typeof value === "string" ? value.replace(BIDI_CONTROLS, "") : value));

  function el(tag, attrs = {}, parent = null, text = null) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    if (text !== null) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  function svg(tag, attrs = {}, parent = null, text = null) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    if (text !== null) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  function sideOf(view, sideId) {
    return (view.sides || []).find((s) => s.id === sideId) || null;
  }

  function sideClass(view, sideId) {
    const side = sideOf(view, sideId);
    return side ? side.controller : "other";
  }

  function unitById(view, id) {
    return (view.units || []).find((u) => u.id === id) || null;
  }

  function formatTime(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  function cap(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  }

  // ---- header, statuses ---------------------------------------------------------------------

  function renderHeader(view) {
    const over = Boolean(view.outcome);
    $("round").textContent = over ? "Battle over" : view.round > 0 ? `Round ${view.round}` : "Setting up";
    const turn = $("turn");
    // "Turn: Road Wardens" (a side's name is often plural: no possessive to get wrong).
    const side = !over && view.turn ? sideOf(view, view.turn) : null;
    turn.textContent = side ? `Turn: ${side.name}` : !over && view.turn ? `Turn: ${view.turn}` : "";
    turn.className = `turn ${side ? side.controller : ""}`;
    $("title").textContent = view.title || "";
    document.title = view.round > 0 ? `Round ${view.round} · soloscope` : "soloscope";
  }

  function renderStatuses(view) {
    const box = $("statuses");
    box.replaceChildren();
    for (const status of view.statuses || []) {
      el("p", { class: `status ${status.level}` }, box, status.text);
    }
  }

  // ---- the board (SVG in table inches, +y away from the player = up on screen) --------------

  function sizeBoard(view) {
    const board = $("board");
    const ratio = view.table_width_in / view.table_depth_in;
    board.style.aspectRatio = `${view.table_width_in} / ${view.table_depth_in}`;
    board.style.width = `min(100%, calc((100vh - 10rem) * ${ratio}))`;
  }

  function renderBoard(view) {
    sizeBoard(view);
    placeFrame();
    const W = view.table_width_in;
    const D = view.table_depth_in;
    const Y = (y) => D - y;
    const root = $("overlay");
    // Labels: about 1/42 of the table, but never under 13 screen pixels (phones).
    const pxPerIn = root.clientWidth / W || 25;
    const font = Math.max(Math.max(W, D) / 42, 13 / pxPerIn);
    root.setAttribute("viewBox", `0 0 ${W} ${D}`);
    root.setAttribute("preserveAspectRatio", "none");
    root.replaceChildren();
    const defs = svg("defs", {}, root);
    for (const [id, colour] of [["arrow", "#ffffff"], ["ghost-arrow", "#ffd23f"]]) {
      const marker = svg("marker", { id, viewBox: "0 0 10 10", refX: 3, refY: 5, markerWidth: 3.5,
        markerHeight: 3.5, orient: "auto" }, defs);
      svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: colour }, marker);
    }
    const at = (x, y, r, headingDeg) => {
      const a = (headingDeg * Math.PI) / 180;
      return [x + r * Math.sin(a), Y(y) - r * Math.cos(a)];
    };

    // Name labels are drawn where they are, then moved so that none covers another or a piece.
    const labelJobs = [];
    const sightJobs = [];
    const obstacles = [];
    const pieces = [];
    const terrainJobs = [];
    const terrainLayer = svg("g", { class: "terrain-layer" }, root);
    for (const piece of view.terrain || []) {
      const pts = piece.polygon_in.map(([x, y]) => `${x},${Y(y)}`).join(" ");
      svg("polygon", { points: pts, class: `terrain cover-${piece.cover}` }, terrainLayer);
      const cx = piece.polygon_in.reduce((s, p) => s + p[0], 0) / piece.polygon_in.length;
      const cy = piece.polygon_in.reduce((s, p) => s + p[1], 0) / piece.polygon_in.length;
      const text = svg("text", { x: cx, y: Y(cy), "font-size": font * 0.85, "text-anchor": "middle",
        class: "label terrain-label" }, terrainLayer, piece.name);
      terrainJobs.push({ node: text, anchor: { x: cx, y: Y(cy), r: 0 }, centred: true });
    }

    // A grid game's squares, with column letters (A at the left) and row numbers (1 at the far
    // edge) inside the first row and column, so orders like "Troll at C4" can be found.
    if (view.grid) {
      const g = view.grid;
      const s = g.cell_in;
      const gridLayer = svg("g", { class: "grid-layer" }, root);
      for (const [c, r] of g.blocked || []) {
        svg("rect", { x: c * s, y: Y((g.rows - r) * s), width: s, height: s, class: "grid-blocked",
          "data-cell": `${c},${r}` }, gridLayer);
      }
      for (let c = 0; c <= g.cols; c += 1) {
        svg("line", { x1: c * s, y1: Y(0), x2: c * s, y2: Y(g.rows * s), class: "grid-line" }, gridLayer);
      }
      for (let r = 0; r <= g.rows; r += 1) {
        svg("line", { x1: 0, y1: Y(r * s), x2: g.cols * s, y2: Y(r * s), class: "grid-line" }, gridLayer);
      }
      const size = Math.min(font * 0.8, s * 0.28);
      for (let c = 0; c < g.cols; c += 1) {
        svg("text", { x: (c + 0.5) * s, y: Y(g.rows * s) + size * 1.05, "font-size": size,
          "text-anchor": "middle", class: "grid-label", "data-col": c }, gridLayer,
          String.fromCharCode(65 + c));
        // No name or sight label is put over a square's letter or number.
        obstacles.push({ x: (c + 0.5) * s - size * 0.45, y: Y(g.rows * s), w: size * 0.9, h: size * 1.2 });
      }
      for (let r = 0; r < g.rows; r += 1) {
        svg("text", { x: size * 0.25, y: Y((g.rows - r - 0.5) * s) + size * 0.35, "font-size": size,
          class: "grid-label", "data-row": r + 1 }, gridLayer, String(r + 1));
        obstacles.push({ x: 0, y: Y((g.rows - r - 0.5) * s) - size * 0.6, w: size * 1.5, h: size * 1.2 });
      }
    }

    // Ranges and arcs: for the selected unit always, for every active unit when ticked.
    const showAll = $("show-ranges").checked;
    const rangeLayer = svg("g", { class: "range-layer" }, root);
    for (const unit of view.units || []) {
      if (unit.status === "fallen" || unit.status === "off") continue;
      if (!showAll && unit.id !== state.selectedUnit) continue;
      const r = unit.base_diameter_in / 2;
      const ranges = unit.ranges_in || [];
      if (unit.front_arc_deg) {
        // The arc reaches the longest range (measured from the base edge), or 3 in without one.
        const R = r + (ranges.length ? Math.max(...ranges) : 3);
        const half = unit.front_arc_deg / 2;
        const [x1, y1] = at(unit.x_in, unit.y_in, R, unit.heading_deg - half);
        const [x2, y2] = at(unit.x_in, unit.y_in, R, unit.heading_deg + half);
        const large = unit.front_arc_deg > 180 ? 1 : 0;
        svg("path", {
          d: `M ${unit.x_in} ${Y(unit.y_in)} L ${x1} ${y1} A ${R} ${R} 0 ${large} 1 ${x2} ${y2} Z`,
          class: "arc", "data-arc-of": unit.id,
        }, rangeLayer);
      }
      for (const range of ranges) {
        svg("circle", { cx: unit.x_in, cy: Y(unit.y_in), r: r + range, class: "range-ring",
          "data-range-of": unit.id }, rangeLayer);
        svg("text", { x: unit.x_in, y: Y(unit.y_in) - r - range - 0.15, "font-size": font * 0.7,
          "text-anchor": "middle", class: "label" }, rangeLayer, `${range}"`);
      }
    }

    if ($("show-sight").checked) {
      const sightLayer = svg("g", { class: "sight-layer" }, root);
      for (const line of view.sight_lines || []) {
        const a = unitById(view, line.from_id);
        const b = unitById(view, line.to_id);
        if (!a || !b) continue;
        const cls = line.clear ? `sight cover-${line.cover}` : "sight blocked";
        svg("line", { x1: a.x_in, y1: Y(a.y_in), x2: b.x_in, y2: Y(b.y_in), class: cls,
          "data-sight": `${line.from_id}>${line.to_id}` }, sightLayer);
        const words = [];
        if (line.range_in !== null && line.range_in !== undefined) {
          // On a grid, ranges are counted in squares.
          const squares = view.grid ? Math.round(line.range_in / view.grid.cell_in) : null;
          words.push(squares === null ? `${line.range_in.toFixed(1)}"`
            : `${squares} square${squares === 1 ? "" : "s"}`);
        }
        words.push(line.clear ? (line.cover === "none" ? "in the open" : `${line.cover} cover`) : "no line of sight");
        if (line.note) words.push(line.note);  // the ruleset's word on it ("counts 3")
        // Anchored two thirds of the way to the target, where a fan of lines from one piece
        // has spread apart, so each line's words sit by their own line.
        const mx = a.x_in + (b.x_in - a.x_in) * SIGHT_ANCHOR;
        const my = Y(a.y_in + (b.y_in - a.y_in) * SIGHT_ANCHOR);
        const text = svg("text", { x: mx, y: my - 0.2, "font-size": font * 0.75,
          "text-anchor": "middle", class: "label sight-label", "data-sight-of": line.to_id },
          sightLayer, words.join(" · "));
        sightJobs.push({ node: text, anchor: { x: mx, y: my, r: 0 }, centred: true,
          layer: sightLayer, words: words.join(" · "), toId: line.to_id });
      }
    }

    const order = view.order;
    const orderLayer = svg("g", { class: "order-layer" }, root);
    if (order) {
      const unit = unitById(view, order.unit_id);
      const points = (order.path_in || []).map(([x, y]) => `${x},${Y(y)}`);
      if (points.length >= 2) svg("polyline", { points: points.join(" "), class: "path" }, orderLayer);
      if (order.ghost && unit) {
        const r = unit.base_diameter_in / 2;
        const g = order.ghost;
        svg("circle", { cx: g.x_in, cy: Y(g.y_in), r, class: "ghost", "data-ghost-of": unit.id },
          orderLayer);
        const [fx, fy] = at(g.x_in, g.y_in, r * 1.6, g.heading_deg);
        svg("line", { x1: g.x_in, y1: Y(g.y_in), x2: fx, y2: fy, class: "ghost-facing",
          "marker-end": "url(#ghost-arrow)" }, orderLayer);
      }
    }

    const unitLayer = svg("g", { class: "unit-layer" }, root);
    for (const unit of view.units || []) {
      if (unit.status === "off") continue;
      const r = unit.base_diameter_in / 2;
      const group = svg("g", { "data-unit-id": unit.id, class: "unit" }, unitLayer);
      const cx = unit.x_in;
      const cy = Y(unit.y_in);
      if (order && order.unit_id === unit.id) {
        svg("circle", { cx, cy, r: r + 0.3, class: "ordered-ring" }, group);
      }
      if (order && order.target_id === unit.id) {
        svg("circle", { cx, cy, r: r + 0.45, class: "target-ring" }, group);
      }
      obstacles.push({ x: cx - r, y: cy - r, w: 2 * r, h: 2 * r });
      pieces.push({ x: cx, y: cy, r, owner: unit.id });
      const statusClass = unit.status === "active" ? "" : unit.status;
      // Any ruleset status (routing, pinned, alerted...) marks the base; the card names it.
      const flagged = (unit.statuses || []).length && unit.status === "active" ? "flagged" : "";
      // A piece placed by hand (the camera cannot see it) is drawn with a dashed rim; one the
      // camera has lost for a while, with a dotted one.
      const hand = unit.placed_by_hand ? "by-hand" : unit.place_offered ? "unseen" : "";
      svg("circle", { cx, cy, r, class: `base ${sideClass(view, unit.side)} ${statusClass} ${flagged} ${hand}`,
        "data-statuses": (unit.statuses || []).join(" ") }, group);
      if (unit.status === "fallen") {
        const d = r * 0.6;
        svg("path", { d: `M ${cx - d} ${cy - d} L ${cx + d} ${cy + d} M ${cx - d} ${cy + d} L ${cx + d} ${cy - d}`,
          class: "fallen-mark" }, group);
      } else {
        const [fx, fy] = at(unit.x_in, unit.y_in, r * 1.5, unit.heading_deg);
        svg("line", { x1: cx, y1: cy, x2: fx, y2: fy, class: "facing", "marker-end": "url(#arrow)" },
          group);
        const tip = r * 0.3;
        obstacles.push({ x: fx - tip, y: fy - tip, w: 2 * tip, h: 2 * tip });
      }
      const text = svg("text", { x: cx, y: cy - r - 0.25, "font-size": font, "text-anchor": "middle",
        class: "label unit-label" }, group, unit.name);
      const first = order && (order.unit_id === unit.id || order.target_id === unit.id);
      labelJobs[first ? "unshift" : "push"]({ node: text, anchor: { x: cx, y: cy, r }, group,
        owner: unit.id });
      group.addEventListener("click", () => { if (!state.placing) selectUnit(unit.id); });
    }
    drawPlacing(view, root, at, Y);
    const placed = placeBoardLabels([...labelJobs, ...terrainJobs], obstacles, pieces, W, D, font);
    placeSightLabels(sightJobs, [...obstacles, ...placed], W, D, font);
  }

  // Lines-of-sight labels go where no name, piece or other label is; one that finds no free
  // spot on the board collapses to a small "i" mark at the line's middle, which shows its words
  // below the board when tapped (a phone's board has little room).
  function placeSightLabels(jobs, taken, W, D, font) {
    if (!jobs.length) return;
    const spots = placeBoardLabels(jobs, taken, [], W, D, font, true);
    const icons = [];
    jobs.forEach((job, i) => {
      if (spots[i].clear) {
        taken.push(spots[i]);
        return;
      }
      job.node.remove();
      const r = font * 0.55;
      const icon = svg("g", { class: "sight-icon", role: "button", tabindex: "0",
        "data-sight-note": job.words, "data-sight-of": job.toId }, job.layer);
      svg("title", {}, icon, job.words);
      svg("circle", { cx: 0, cy: 0, r }, icon);
      svg("text", { x: 0, y: r * 0.4, "font-size": r * 1.3, "text-anchor": "middle" }, icon, "i");
      const show = () => showSightNote(job.words);
      icon.addEventListener("click", show);
      icon.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") show(); });
      icons.push({ icon, r, anchor: job.anchor });
    });
    const boxes = window.soloscopeLabels.placeLabels(
      icons.map(({ r, anchor }) => ({ w: 2 * r, h: 2 * r, anchor, centred: true })), taken,
      { x: 0, y: 0, w: W, h: D });
    icons.forEach(({ icon, r }, i) => {
      const box = boxes[i];
      icon.setAttribute("transform", `translate(${box.x + r} ${box.y + r})`);
      taken.push(box);
    });
  }

  const SIGHT_ANCHOR = 0.65;

  function showSightNote(text) {
    const note = $("sight-note");
    note.textContent = text;
    note.hidden = false;
  }

  // Move the labels (already drawn, so they can be measured) to spots where they collide
  // with nothing; a name set away from its piece gets a thin leader line to it.
  function placeBoardLabels(jobs, obstacles, pieces, W, D, font, keep = false) {
    const pad = font * 0.08;
    const measured = jobs.map((job) => {
      const x0 = Number(job.node.getAttribute("x"));
      const y0 = Number(job.node.getAttribute("y"));
      const box = job.node.getBBox(); // where the text is now, in board inches
      const known = box.width > 0 && box.height > 0;
      const w = known ? box.width : font * 0.6 * job.node.textContent.length;
      const h = known ? box.height : font * 1.2;
      return { ...job, x0, y0, bx: known ? box.x : x0 - w / 2, by: known ? box.y : y0 - h * 0.8,
        w: w + 2 * pad, h: h + 2 * pad };
    });
    const board = { x: 0, y: 0, w: W, h: D };
    const spots = window.soloscopeLabels.placeLabels(measured, obstacles, board, pieces);
    measured.forEach((job, i) => {
      const spot = spots[i];
      if (keep && !spot.clear) return; // the caller collapses it
      job.node.setAttribute("x", job.x0 + spot.x + pad - job.bx);
      job.node.setAttribute("y", job.y0 + spot.y + pad - job.by);
      if (job.group && (spot.gap > spot.h * 0.4 || spot.ambiguous)) {
        const { x: ax, y: ay, r } = job.anchor;
        const tx = Math.min(Math.max(ax, spot.x + pad), spot.x + spot.w - pad);
        const ty = Math.min(Math.max(ay, spot.y + pad), spot.y + spot.h - pad);
        const len = Math.hypot(tx - ax, ty - ay) || 1;
        const leader = svg("line", { x1: ax + ((tx - ax) / len) * r, y1: ay + ((ty - ay) / len) * r,
          x2: tx, y2: ty, class: "leader" });
        job.group.insertBefore(leader, job.group.firstChild);
      }
    });
    return spots;
  }

  // ---- the order, the prompt, the cards, the log --------------------------------------------

  function sentence(text) {
    return /[.!?]$/.test(text) ? text : `${text}.`;
  }

  function renderOrder(view) {
    const card = $("order-card");
    const order = view.outcome ? null : view.order;
    card.hidden = !order;
    if (!order) return;
    $("order-text").textContent = order.text;
    $("order-reason").textContent = order.reason ? `Why: ${sentence(order.reason)}` : "";
  }

  // Once the battle is over nothing can be played: the outcome replaces every game control.
  function renderOutcome(view) {
    const over = Boolean(view.outcome);
    $("outcome-card").hidden = !over;
    $("outcome-text").textContent = over ? view.outcome : "";
    $("controls").hidden = over;
  }

  const ACTION_LABELS = { done: "Done (move only)", pass: "Pass", shoot: "Shoot", melee: "Melee" };

  function renderPrompt(view) {
    const prompt = view.outcome ? null : view.prompt;
    const key = JSON.stringify(prompt);
    if (key === state.promptKey) return;
    state.promptKey = key;
    state.declareAction = null;
    const card = $("prompt-card");
    const buttons = $("prompt-buttons");
    buttons.replaceChildren();
    $("prompt-targets").replaceChildren();
    card.hidden = !prompt;
    if (!prompt) return;
    $("prompt-text").textContent = prompt.text;
    if (prompt.kind === "dice") {
      $("prompt-title").textContent = prompt.purpose ? `Dice: ${prompt.purpose}` : "Dice";
      for (let value = 1; value <= prompt.sides; value += 1) {
        const b = el("button", { type: "button", class: "die", "data-die": value }, buttons, String(value));
        b.addEventListener("click", () => send({ kind: "dice", value }));
      }
    } else if (prompt.kind === "card") {
      renderCardPicker(prompt, buttons);
    } else if (prompt.kind === "declare") {
      $("prompt-title").textContent = "Declare";
      for (const option of prompt.options || []) {
        const b = el("button", { type: "button", class: "action", "data-action": option.action },
          buttons, ACTION_LABELS[option.action] || cap(option.action.replace(/_/g, " ")));
        b.addEventListener("click", () => chooseAction(prompt, option, b));
      }
    } else {
      $("prompt-title").textContent = "Confirm";
      const b = el("button", { type: "button", class: "confirm", "data-confirm": prompt.unit_id || "" },
        buttons, "Confirm");
      b.addEventListener("click", () => send({ kind: "confirm", unit_id: prompt.unit_id }));
    }
  }

  // A card drawn from the player's real deck: two taps (rank, then suit), a Joker button, or
  // typed on the keyboard ("QS", "10H", "X" for a Joker). It travels as a dice command whose
  // value is the card's place in the deck: spades, hearts, diamonds, clubs, Ace to King, 1-52;
  // a Joker 53 (assistant.session.dice.CARD_CODES).
  const CARD_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const CARD_SUITS = [["S", "\u2660"], ["H", "\u2665"], ["D", "\u2666"], ["C", "\u2663"]];
  const JOKER_CODE = 53;
  let cardKeys = "";

  function cardCode(rank, suit) {
    const s = CARD_SUITS.findIndex((pair) => pair[0] === suit);
    const r = CARD_RANKS.indexOf(rank);
    return s < 0 || r < 0 ? 0 : s * 13 + r + 1;
  }

  function sendCard(code) {
    state.cardRank = null;
    cardKeys = "";
    const suit = CARD_SUITS[Math.floor((code - 1) / 13)];
    state.cardLabel = code === JOKER_CODE ? "Joker" : `${CARD_RANKS[(code - 1) % 13]}${suit ? suit[1] : ""}`;
    send({ kind: "dice", value: code });
  }

  function renderCardPicker(prompt, buttons) {
    $("prompt-title").textContent = "Card";
    state.cardRank = null;
    const ranks = el("div", { class: "card-ranks" }, buttons);
    for (const rank of CARD_RANKS) {
      const b = el("button", { type: "button", class: "card-rank", "data-rank": rank }, ranks, rank);
      b.addEventListener("click", () => {
        state.cardRank = rank;
        for (const other of ranks.children) other.classList.toggle("selected", other === b);
      });
    }
    const suits = el("div", { class: "card-suits" }, buttons);
    for (const [suit, symbol] of CARD_SUITS) {
      const b = el("button", { type: "button", class: `card-suit suit-${suit}`, "data-suit": suit },
        suits, symbol);
      b.addEventListener("click", () => {
        if (state.cardRank) sendCard(cardCode(state.cardRank, suit));
        else feedback("Tap the card's rank first, then its suit.", false);
      });
    }
    const joker = el("button", { type: "button", class: "card-joker", "data-joker": "1" }, suits,
      "Joker");
    joker.addEventListener("click", () => sendCard(JOKER_CODE));
  }

  document.addEventListener("keydown", (event) => {
    const prompt = state.view && !state.view.outcome ? state.view.prompt : null;
    if (!prompt || prompt.kind !== "card" || event.target.tagName === "INPUT") return;
    const key = event.key.toUpperCase();
    if (key === "X" || key === "*") { sendCard(JOKER_CODE); return; }
    if (!/^[0-9AJQKSHDC]$/.test(key)) { cardKeys = ""; return; }
    cardKeys = (cardKeys + key).slice(-3);
    for (const start of [0, 1]) {
      const m = /^(A|[2-9]|10|J|Q|K)([SHDC])$/.exec(cardKeys.slice(start));
      if (m) { sendCard(cardCode(m[1], m[2])); return; }
    }
  });

  function chooseAction(prompt, option, button) {
    const targets = $("prompt-targets");
    targets.replaceChildren();
    for (const other of $("prompt-buttons").children) other.classList.remove("selected");
    if (!option.targets || option.targets.length === 0) {
      send({ kind: "declare", action: option.action, unit_id: prompt.unit_id });
      return;
    }
    state.declareAction = option.action;
    button.classList.add("selected");
    for (const targetId of option.targets) {
      const unit = unitById(state.view, targetId);
      const b = el("button", { type: "button", class: "target", "data-target": targetId }, targets,
        `${cap(option.action)} ${unit ? unit.name : targetId}`);
      b.addEventListener("click", () =>
        send({ kind: "declare", action: option.action, target: targetId, unit_id: prompt.unit_id }));
    }
  }

  // Units grouped by side; what a side holds as a whole (its dice pool, its deck) is shown once,
  // at the head of its group, never on each card.
  function renderUnits(view) {
    const box = $("unit-cards");
    box.replaceChildren();
    const rank = { ai: 0, player: 1, other: 2 };
    const sides = [...(view.sides || [])];
    for (const unit of view.units || []) {
      if (!sides.some((s) => s.id === unit.side)) {
        sides.push({ id: unit.side, name: unit.side, controller: "other", resources: [] });
      }
    }
    sides.sort((a, b) => (rank[a.controller] ?? 2) - (rank[b.controller] ?? 2));
    for (const side of sides) {
      const units = (view.units || []).filter((u) => u.side === side.id);
      const group = el("div", { class: `side-group ${side.controller}`, "data-side": side.id }, box);
      const head = el("div", { class: "side-head" }, group);
      el("span", { class: "side-name" }, head, side.name);
      for (const resource of side.resources || []) {
        const row = el("span", { class: "side-resource" }, head);
        el("span", { class: "resource-label" }, row, `${cap(resource.label)}: `);
        el("span", { class: "resource-value" }, row, resource.value);
      }
      const grid = el("div", { class: "unit-cards-grid" }, group);
      for (const unit of units) renderUnitCard(view, unit, grid);
    }
  }

  function renderUnitCard(view, unit, parent) {
    const side = sideOf(view, unit.side);
    const slot = el("div", { class: "unit-slot" }, parent);
    const classes = ["unit-card", sideClass(view, unit.side), unit.status];
    if (view.order && view.order.unit_id === unit.id) classes.push("ordered");
    if (state.selectedUnit === unit.id) classes.push("selected");
    const card = el("button", { type: "button", class: classes.join(" "), "data-card": unit.id }, slot);
    el("span", { class: "unit-name" }, card, unit.name);
    const meta = [side ? side.name : unit.side, unit.status];
    if (unit.activated) meta.push("acted");
    el("span", { class: "unit-meta" }, card, meta.join(" · "));
    // The ruleset's statuses and resources, whatever they are: drawn as the view lists them.
    if ((unit.statuses || []).length) {
      const row = el("span", { class: "unit-statuses" }, card);
      for (const status of unit.statuses) el("span", { class: "status-chip" }, row, status);
    }
    if (unit.placed_by_hand) el("span", { class: "hand-chip" }, card, "placed by hand");
    for (const resource of unit.resources || []) {
      const row = el("span", { class: "unit-resource" }, card);
      el("span", { class: "resource-label" }, row, `${cap(resource.label)}: `);
      el("span", { class: "resource-value" }, row, resource.value);
    }
    if (unit.wound_slots > 0) {
      // "Wounds 1/3" is what is read (and read out); the boxes only draw it.
      const wounds = el("span", { class: "wounds",
        title: `${unit.wounds} of ${unit.wound_slots} wounds taken` }, card);
      el("span", { class: "wounds-label" }, wounds, `Wounds ${unit.wounds}/${unit.wound_slots}`);
      for (let i = 0; i < unit.wound_slots; i += 1) {
        el("span", { class: i < unit.wounds ? "wound taken" : "wound", "aria-hidden": "true" }, wounds);
      }
    }
    card.addEventListener("click", () => selectUnit(unit.id));
    if (unit.status === "active" && (unit.place_offered || unit.placed_by_hand)) {
      placeButton(unit, slot);
    }
  }

  // "Place it by hand": the piece's tag cannot be seen; the player drags it on the board.
  function placeButton(unit, parent) {
    const b = el("button", { type: "button", class: "place-by-hand", "data-place": unit.id }, parent,
      unit.placed_by_hand ? "Move it by hand" : "Place it by hand");
    b.addEventListener("click", () => startPlacing(unit.id));
    return b;
  }

  // ---- the set-up checklist ----------------------------------------------------------------

  const CHECK_MARKS = { ok: "\u2713", move: "!", unseen: "?", by_hand: "\u270B" };

  function renderChecklist(view) {
    const items = view.outcome ? [] : view.checklist || [];
    $("setup-card").hidden = items.length === 0;
    const list = $("checklist");
    list.replaceChildren();
    for (const item of items) {
      const li = el("li", { class: `check ${item.state}`, "data-check": item.name }, list);
      el("span", { class: "check-mark", "aria-hidden": "true" }, li, CHECK_MARKS[item.state] || "");
      const words = el("span", { class: "check-words" }, li);
      el("span", { class: "check-name" }, words, cap(item.name));
      // The sentence as said, less the piece's name the line already shows.
      const lead = `${item.name.toLowerCase()}: `;
      const said = item.text.toLowerCase().startsWith(lead) ? cap(item.text.slice(lead.length)) : item.text;
      const doing = item.state === "ok" ? "in place" : item.state === "by_hand" ? "placed by hand" : said;
      el("span", { class: "check-text" }, words, doing);
      const unit = item.unit_id ? unitById(view, item.unit_id) : null;
      if (unit && item.state !== "ok" && (item.offered || unit.place_offered || unit.placed_by_hand)) {
        placeButton(unit, li);
      }
    }
    $("setup-confirm").hidden = !items.some((item) => item.state === "unseen" && item.offered);
  }

  // ---- placing a piece by hand --------------------------------------------------------------

  function startPlacing(unitId) {
    const unit = state.view ? unitById(state.view, unitId) : null;
    if (!unit) return;
    state.placing = { unitId, x: unit.x_in, y: unit.y_in, heading: unit.heading_deg };
    renderPlacing();
    renderBoard(state.view);
    $("board").scrollIntoView({ block: "nearest" });
  }

  function renderPlacing() {
    const placing = state.placing;
    $("placing-card").hidden = !placing;
    $("board").classList.toggle("placing", Boolean(placing));
    if (!placing) return;
    const unit = unitById(state.view, placing.unitId);
    $("placing-text").textContent = `Drag ${unit ? unit.name : placing.unitId} on the board to where it `
      + `stands, turn it to face the way it faces, then press "Put it here".`;
  }

  // The piece being placed, drawn over everything at its dragged pose.
  function drawPlacing(view, root, at, Y) {
    const placing = state.placing;
    if (!placing) return;
    const unit = unitById(view, placing.unitId);
    if (!unit || unit.status !== "active") { state.placing = null; renderPlacing(); return; }
    const r = unit.base_diameter_in / 2;
    const g = svg("g", { class: "placing-piece", "data-placing": unit.id }, root);
    svg("circle", { cx: placing.x, cy: Y(placing.y), r, class: "placing-base" }, g);
    const [fx, fy] = at(placing.x, placing.y, r * 1.6, placing.heading);
    svg("line", { x1: placing.x, y1: Y(placing.y), x2: fx, y2: fy, class: "ghost-facing",
      "marker-end": "url(#ghost-arrow)" }, g);
  }

  function boardPoint(event) {
    const view = state.view;
    const box = $("overlay").getBoundingClientRect();
    const W = view.table_width_in;
    const D = view.table_depth_in;
    const x = ((event.clientX - box.left) / box.width) * W;
    const y = D - ((event.clientY - box.top) / box.height) * D;
    return [Math.min(Math.max(x, 0), W), Math.min(Math.max(y, 0), D)];
  }

  function dragTo(event) {
    if (!state.placing || !state.view) return;
    event.preventDefault();
    [state.placing.x, state.placing.y] = boardPoint(event);
    renderBoard(state.view);
  }

  $("overlay").addEventListener("pointerdown", (event) => {
    if (!state.placing) return;
    $("overlay").setPointerCapture(event.pointerId);
    dragTo(event);
  });
  $("overlay").addEventListener("pointermove", (event) => {
    if (state.placing && event.buttons) dragTo(event);
  });
  for (const button of document.querySelectorAll("[data-turn]")) {
    button.addEventListener("click", () => {
      if (!state.placing) return;
      state.placing.heading = (state.placing.heading + Number(button.dataset.turn) + 360) % 360;
      renderBoard(state.view);
    });
  }
  $("placing-done").addEventListener("click", () => {
    const placing = state.placing;
    if (!placing) return;
    state.placing = null;
    renderPlacing();
    renderBoard(state.view);
    send({ kind: "place", unit: placing.unitId, x: Math.round(placing.x * 100) / 100,
      y: Math.round(placing.y * 100) / 100, heading: Math.round(placing.heading * 10) / 10 });
  });
  $("placing-cancel").addEventListener("click", () => {
    state.placing = null;
    renderPlacing();
    renderBoard(state.view);
  });

  function renderLog(view) {
    const log = $("log");
    log.replaceChildren();
    for (const line of [...(view.announcements || [])].reverse()) {
      const item = el("li", {}, log);
      el("time", {}, item, formatTime(line.t_s));
      item.appendChild(document.createTextNode(line.text));
    }
  }

  function selectUnit(id) {
    state.selectedUnit = state.selectedUnit === id ? null : id;
    if (state.view) {
      renderBoard(state.view);
      renderUnits(state.view);
    }
  }

  function render() {
    const view = state.view;
    if (!view) return;
    renderHeader(view);
    renderStatuses(view);
    renderBoard(view);
    renderOutcome(view);
    renderOrder(view);
    renderPrompt(view);
    renderChecklist(view);
    renderPlacing();
    renderUnits(view);
    renderLog(view);
    $("compass").hidden = !view.compass;
    document.body.dataset.viewVersion = String(state.version);
  }

  // Each view version is drawn once (the first fetch and the live feed both deliver the current
  // one); after a reconnect the server's current view is taken whatever its number.
  function applyView(version, view, renumbered = false) {
    if (!renumbered && version <= state.version) return;
    state.version = version;
    state.view = view;
    render();
  }

  // ---- the camera frame --------------------------------------------------------------------

  // Place the image over the table area it covers: bounds_in = [x0, y0, x1, y1] in inches,
  // null for exactly the table.
  function placeFrame() {
    const img = $("frame");
    const b = state.frameBounds;
    const view = state.view;
    if (!b || !view) {
      Object.assign(img.style, { left: "0", top: "0", width: "100%", height: "100%" });
      return;
    }
    const W = view.table_width_in;
    const D = view.table_depth_in;
    Object.assign(img.style, {
      left: `${(b[0] / W) * 100}%`,
      top: `${((D - b[3]) / D) * 100}%`,
      width: `${((b[2] - b[0]) / W) * 100}%`,
      height: `${((b[3] - b[1]) / D) * 100}%`,
    });
  }

  function wantFrame(version, bounds) {
    if (version >= state.frameWanted) state.wantedBounds = bounds || null;
    state.frameWanted = Math.max(state.frameWanted, version);
    if (state.frameLoading || state.frameWanted <= state.frameVersion) return;
    const img = $("frame");
    const next = state.frameWanted;
    const nextBounds = state.wantedBounds;
    state.frameLoading = true;
    const generation = state.frameGeneration;
    const done = () => {
      state.frameLoading = false;
      state.frameVersion = generation === state.frameGeneration ? next : 0;
      state.frameBounds = nextBounds;
      placeFrame();
      document.body.dataset.frameVersion = String(next);
      if (state.frameWanted > state.frameVersion) wantFrame(state.frameWanted, state.wantedBounds);
    };
    img.onload = done;
    img.onerror = done;
    img.src = `/frame.jpg?v=${next}`;
  }

  // ---- commands ----------------------------------------------------------------------------

  let feedbackTimer = null;
  function feedback(text, ok) {
    const box = $("feedback");
    box.textContent = text;
    box.className = `feedback ${ok ? "ok" : "bad"}`;
    clearTimeout(feedbackTimer);
    feedbackTimer = setTimeout(() => { box.textContent = ""; }, 4000);
  }

  async function send(command) {
    try {
      const response = await fetch("/api/command", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(command),
      });
      const reply = await response.json().catch(() => ({}));
      if (response.ok) {
        const what = command.kind === "dice" ? (state.view && state.view.prompt
            && state.view.prompt.kind === "card" ? `card ${state.cardLabel}` : `dice ${command.value}`)
          : command.kind === "declare" ? [command.action, command.target].filter(Boolean).join(" ")
          : command.kind === "place" ? `place ${(unitById(state.view, command.unit) || {}).name || command.unit}`
          : command.kind;
        feedback(`Sent: ${what}`, true);
      } else {
        feedback(reply.error || `Refused (${response.status})`, false);
      }
    } catch (error) {
      feedback("Not sent: the connection to soloscope is lost.", false);
    }
  }

  // ---- wiring ------------------------------------------------------------------------------

  for (const button of document.querySelectorAll("[data-command]")) {
    button.addEventListener("click", () => send({ kind: button.dataset.command }));
  }
  for (const button of document.querySelectorAll("[data-tool]")) {
    button.addEventListener("click", () => {
      const command = { kind: button.dataset.tool, text: $("tool-question").value.trim() };
      if (command.kind === "secret" && $("tool-last-place").checked) command.action = "last-place";
      send(command);
    });
  }
  $("sight-note").addEventListener("click", () => { $("sight-note").hidden = true; });
  for (const id of ["show-ranges", "show-sight"]) {
    $(id).addEventListener("change", () => state.view && renderBoard(state.view));
  }
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => state.view && renderBoard(state.view), 150);
  });
  $("show-frame").addEventListener("change", (e) => {
    $("frame").classList.toggle("hidden", !e.target.checked);
  });

  function connect() {
    const source = new EventSource("/events");
    const connection = $("connection");
    let dropped = false;
    source.onopen = () => {
      if (dropped) {
        dropped = false;
        state.renumbered = true;
        state.frameGeneration += 1;
        state.frameWanted = 0;
        state.frameVersion = 0;
      }
      connection.textContent = "live";
      connection.className = "connection online";
    };
    source.onerror = () => {
      dropped = true;
      connection.textContent = "reconnecting…";
      connection.className = "connection offline";
    };
    source.addEventListener("view", (event) => {
      const renumbered = state.renumbered;
      state.renumbered = false;
      applyView(Number(event.lastEventId) || state.version + 1, parseView(event.data), renumbered);
    });
    source.addEventListener("frame", (event) => {
      const frame = JSON.parse(event.data);
      wantFrame(frame.version, frame.bounds_in);
    });
  }

  fetch("/api/view")
    .then((response) => response.text())
    .then(parseView)
    .then((body) => { if (body.view) applyView(body.version, body.view); })
    .catch(() => {});
  connect();
})();
