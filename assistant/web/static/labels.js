// soloscope table page: where the board's text labels go so that none covers another or a piece.
// Greedy placement in table inches (SVG user units, y down): each label in turn tries spots
// around its anchor, nearest first, and takes the first that stays on the board and overlaps
// neither a piece nor a label placed before it. When no spot is free it takes the one that
// overlaps least. A piece's name should also read as belonging to that piece: a spot nearer to
// another piece than to its own is taken only when nothing better is free (the page then draws a
// leader line). Pure functions on boxes {x, y, w, h}; the page measures and moves the text.
"use strict";

(() => {
  function overlapArea(a, b) {
    const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
    const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
    return dx > 0 && dy > 0 ? dx * dy : 0;
  }

  // Distance from a point to the nearest point of a box (0 inside it).
  function distanceToBox(px, py, box) {
    const dx = Math.max(box.x - px, 0, px - (box.x + box.w));
    const dy = Math.max(box.y - py, 0, py - (box.y + box.h));
    return Math.hypot(dx, dy);
  }

  // Candidate boxes of w x h round an anchor circle (cx, cy, r), nearest first: above, below,
  // right, left and the diagonals, slid sideways, at growing distances.
  function candidates(anchor, w, h, centredFirst) {
    const { x: cx, y: cy, r } = anchor;
    const out = [];
    if (centredFirst) out.push({ x: cx - w / 2, y: cy - h / 2, w, h, order: -1 });
    const gap = h * 0.15;
    const step = h * 0.5;
    let order = 0;
    for (let ring = 0; ring < 12; ring += 1) {
      const d = r + gap + ring * step;
      const spots = [
        [cx - w / 2, cy - d - h], // above, centred
        [cx - w / 2, cy + d], // below, centred
        [cx + d, cy - h / 2], // right
        [cx - d - w, cy - h / 2], // left
      ];
      for (const shift of [0.3, 0.6, 0.9]) {
        spots.push([cx - w / 2 + shift * w, cy - d - h], [cx - w / 2 - shift * w, cy - d - h]);
        spots.push([cx - w / 2 + shift * w, cy + d], [cx - w / 2 - shift * w, cy + d]);
      }
      for (const shift of [0.6, 1.2]) {
        spots.push([cx + d, cy - h / 2 - shift * h], [cx + d, cy - h / 2 + shift * h]);
        spots.push([cx - d - w, cy - h / 2 - shift * h], [cx - d - w, cy - h / 2 + shift * h]);
      }
      for (const [x, y] of spots) {
        out.push({ x, y, w, h, order: (order += 1) });
      }
    }
    // Nearest to the anchor's edge first; among equals, the order above (above, below...).
    for (const box of out) {
      box.gap = Math.max(0, distanceToBox(cx, cy, box) - r);
    }
    out.sort((a, b) => Math.round((a.gap - b.gap) * 20) || a.order - b.order);
    return out;
  }

  // A spot nearer to another piece than to the label's own reads as the other's name: it costs
  // as much as a small overlap (square inches), so it is taken only when no clean spot is left.
  const AMBIGUOUS_COST = 0.05;

  function nearerToAnother(box, label, pieces) {
    if (label.owner === undefined) return false;
    const own = distanceToBox(label.anchor.x, label.anchor.y, box) - label.anchor.r;
    return pieces.some((p) => p.owner !== label.owner
      && distanceToBox(p.x, p.y, box) - p.r < own - 1e-6);
  }

  // Place labels one after another. labels: [{w, h, anchor: {x, y, r}, centred, owner}] in
  // placing order (the most important first); obstacles: boxes no label may cover (the pieces,
  // their facing arrows); pieces: [{x, y, r, owner}] the circles a name must be nearest to its
  // own of; bounds: {x, y, w, h} of the board. Returns one box per label, with gap (distance
  // from its anchor's edge) and clear (false when no spot was free).
  function placeLabels(labels, obstacles, bounds, pieces = []) {
    const placed = [];
    const results = [];
    for (const label of labels) {
      let best = null;
      let bestCost = Infinity;
      let bestAmbiguous = false;
      for (const box of candidates(label.anchor, label.w, label.h, label.centred)) {
        const inside = box.x >= bounds.x && box.y >= bounds.y
          && box.x + box.w <= bounds.x + bounds.w && box.y + box.h <= bounds.y + bounds.h;
        let cost = inside ? 0 : 1e6;
        for (const other of placed) cost += overlapArea(box, other);
        for (const other of obstacles) cost += overlapArea(box, other);
        if (cost >= bestCost) continue;
        const ambiguous = nearerToAnother(box, label, pieces);
        if (ambiguous) cost += AMBIGUOUS_COST;
        if (cost < bestCost) {
          best = box;
          bestCost = cost;
          bestAmbiguous = ambiguous;
          if (cost === 0) break;
        }
      }
      placed.push(best);
      results.push({ x: best.x, y: best.y, w: best.w, h: best.h, gap: best.gap,
        ambiguous: bestAmbiguous, clear: bestCost - (bestAmbiguous ? AMBIGUOUS_COST : 0) === 0 });
    }
    return results;
  }

  window.soloscopeLabels = { placeLabels, overlapArea };
})();
