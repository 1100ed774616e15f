// Correcting a misread piece by its picture: the pieces drawn from the printed content
// (GET /api/content/<game>), a board's components as small pictures (an Isle sheet as its map),
// and a picker that shows the likely pieces first with the best guess chosen.

import { el } from "./live.js";

const SVG = "http://www.w3.org/2000/svg";
const MANY = 12; // more choices than this get a search box
const PAPER = "#ffffff";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.setAttribute("class", value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

// The content is the same for every table and cached by the browser (Cache-Control, ETag).
export async function loadContent(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the pieces could not be loaded (${response.status})`);
  return response.json();
}

export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function boardName(players, seat) {
  const player = players.find((p) => p.seat === seat);
  return player ? `${player.name}'s board` : `Board ${seat}`;
}

// Color Field values are {tile, rotation}; a tile whose edges disagreed with its marker comes
// back as its bare id, which means the same tile with its turn unknown.
function tileValue(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return { tile: value, rotation: null };
  return { tile: value.tile, rotation: Number.isInteger(value.rotation) ? value.rotation : null };
}

// What a component can hold, as choices {id, label, draw(size, rotation)}; id null is empty.
function choicesFor(game, component, content) {
  if (game === "colorfield") {
    return content.tiles.map((tile) => ({
      id: tile.id,
      label: tile.id,
      draw: (size, rotation) => tilePicture(content, tile, rotation, size),
    }));
  }
  if (game === "paintings") {
    return content.cards.map((card) => ({
      id: card.id,
      label: card.id,
      draw: (size) => cardPicture(content, card, size),
    }));
  }
  if (game === "isle") {
    return content.colours.map((colour) => ({
      id: colour.name,
      label: `${colour.letter} · ${colour.name}`,
      draw: (size) => pencilPicture(colour, size),
    }));
  }
  if (component.startsWith("shade ")) {
    return content.shades.map((shade) => ({
      id: shade.name,
      label: shade.name,
      draw: (size) => swatch(shade.srgb, size, "shade"),
    }));
  }
  return content.chips.map((chip) => ({
    id: chip.name,
    label: chip.name,
    draw: (size) => chipPicture(chip, size),
  }));
}

const EMPTY = { id: null, label: "empty", draw: (size) => emptyPicture(size) };

// The likeliest values first: what was read, what the scanner hesitated between, then any
// piece its problem names (readings stored before candidates were kept name them only there).
function likelyIds(game, component, choices) {
  const known = new Set(choices.map((c) => c.id));
  const ids = [];
  const add = (value) => {
    const id = game === "colorfield" ? tileValue(value)?.tile : value;
    if (id !== undefined && id !== null && known.has(id) && !ids.includes(id)) ids.push(id);
  };
  add(component.value);
  for (const candidate of component.candidates || []) add(candidate);
  for (const word of (component.problem || "").split(/[\s,;:()/]+/)) add(word);
  return ids;
}

// The turn the tile was read at, else the one the scanner's candidates give, else upright.
function bestRotation(component) {
  for (const value of [component.value, ...(component.candidates || [])]) {
    const tile = tileValue(value);
    if (tile && tile.rotation !== null) return tile.rotation;
  }
  return 0;
}

// ---- pictures ----

const EDGE_TRIANGLES = [
  "0,0 100,0 50,50",
  "100,0 100,100 50,50",
  "100,100 0,100 50,50",
  "0,100 0,0 50,50",
];
const EDGE_LABELS = [
  [50, 17],
  [83, 50],
  [50, 85],
  [17, 50],
];

// A tile as printed (edges N, E, S, W with their multipliers), turned as placed: a turn of r
// quarter turns clockwise shows printed edge (side - r) on each side.
export function tilePicture(content, tile, rotation, size) {
  const turned = svg("g", { class: "turn", transform: `rotate(${(rotation || 0) * 90} 50 50)` });
  tile.edges.forEach(([colour, multiplier], side) => {
    turned.append(
      svg("polygon", { points: EDGE_TRIANGLES[side], fill: content.colours[colour], class: "edge" }),
    );
    // Each side's paint by its letter too, upright however the tile is turned.
    const [x, y] = EDGE_LABELS[side];
    const letter = content.letters ? content.letters[colour] : "";
    const upright = `rotate(${-(rotation || 0) * 90} ${x} ${y})`;
    const text = `${letter}${multiplier > 1 ? `×${multiplier}` : ""}`;
    if (text) turned.append(svg("text", { x, y, class: "multiplier", transform: upright }, text));
  });
  if (tile.up_mark) turned.append(svg("polygon", { points: "50,26 58,38 42,38", class: "up-mark" }));
  return svg(
    "svg",
    { viewBox: "0 0 100 100", width: size, height: size, class: "piece tile", role: "img" },
    svg("title", {}, tile.edges.map(([colour, times]) => (times > 1 ? `${colour} ×${times}` : colour)).join(", ")),
    turned,
    svg("rect", { x: 1, y: 1, width: 98, height: 98, class: "outline" }),
  );
}

function icon(content, name, x, y) {
  const element = name.replace("bonus-", "");
  const bonus = name !== element;
  const colour = content.icons[element];
  const attrs = bonus
    ? { fill: "#fff", stroke: colour, "stroke-width": 3, "stroke-dasharray": "4 2" }
    : { fill: colour };
  const r = 9;
  if (element === "hue") return svg("circle", { cx: x, cy: y, r, ...attrs });
  if (element === "shape") {
    return svg("polygon", { points: `${x},${y - r} ${x + r},${y + r} ${x - r},${y + r}`, ...attrs });
  }
  if (element === "texture") {
    return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, ...attrs });
  }
  return svg("polygon", {
    points: `${x},${y - r - 2} ${x + r + 2},${y} ${x},${y + r + 2} ${x - r - 2},${y}`,
    ...attrs,
  });
}

// An art card as its five slots, left to right, each with its icons.
export function cardPicture(content, card, size) {
  const group = svg("g", {});
  card.slots.forEach((icons, slot) => {
    const x = slot * 30;
    group.append(svg("rect", { x: x + 1, y: 1, width: 28, height: 58, class: "slot" }));
    icons.forEach((name, k) => {
      const y = icons.length === 1 ? 30 : 16 + 28 * k;
      group.append(icon(content, name, x + 15, y));
    });
  });
  return svg(
    "svg",
    { viewBox: "0 0 150 60", width: size * 1.5, height: size * 0.6, class: "piece card", role: "img" },
    svg("title", {}, card.slots.flat().map((name) => name.replace("-", " ")).join(", ") || "a blank card"),
    group,
  );
}

function swatch(colour, size, kind) {
  return el("span", {
    class: `piece swatch-piece ${kind}`,
    style: `background:${colour};width:${size}px;height:${size}px`,
  });
}

function pencilPicture(colour, size) {
  const piece = swatch(colour.srgb, size, "pencil");
  piece.append(el("b", {}, colour.letter));
  return piece;
}

function chipPicture(chip, size) {
  return svg(
    "svg",
    { viewBox: "0 0 40 40", width: size, height: size, class: "piece chip-disc", role: "img" },
    svg("title", {}, chip.name),
    svg("circle", { cx: 20, cy: 20, r: 18, fill: chip.srgb, class: "disc" }),
  );
}

function emptyPicture(size) {
  return el("span", {
    class: "piece empty-piece",
    style: `width:${size}px;height:${size}px`,
  });
}

// A component's value drawn small, for the list of a board's components.
export function valuePicture(game, component, content, size) {
  const choices = choicesFor(game, component.component, content);
  const value = game === "colorfield" ? tileValue(component.value) : component.value;
  const id = game === "colorfield" ? value?.tile : value;
  const choice = choices.find((c) => c.id === id);
  if (id === null || id === undefined || !choice) return EMPTY.draw(size);
  return choice.draw(size, value.rotation ?? 0);
}

// ---- a board's components ----

function cellName(row, column) {
  return `cell (${row},${column})`;
}

// An Isle sheet as its map: odd-r offset rows (odd rows half a cell right), each cell filled
// with its read colour and its letter, unread cells outlined red, corrected ones blue.
export function isleMap(content, board, onPick) {
  const island =
    content.islands.find((i) => i.id === (board.observed.island || "default")) ||
    content.islands[0];
  const colours = Object.fromEntries(content.colours.map((c) => [c.name, c]));
  const byName = Object.fromEntries(board.components.map((c) => [c.component, c]));
  const R = 20;
  const W = Math.sqrt(3) * R;
  const columns = Math.max(...island.cells.map(([, c]) => c)) + 2;
  const rows = Math.max(...island.cells.map(([r]) => r)) + 1;
  const map = svg("svg", {
    viewBox: `0 0 ${columns * W} ${rows * 1.5 * R + 0.5 * R + 4}`,
    class: "isle-map",
    role: "group",
    "aria-label": "the island sheet",
  });
  for (const [row, column] of island.cells) {
    const name = cellName(row, column);
    const component = byName[name];
    if (!component) continue;
    const x = W * (column + 0.5 * (row & 1)) + W / 2;
    const y = 1.5 * R * row + R + 2;
    const corners = [30, 90, 150, 210, 270, 330].map((a) => {
      const t = (a * Math.PI) / 180;
      return `${(x + (R - 1) * Math.cos(t)).toFixed(1)},${(y + (R - 1) * Math.sin(t)).toFixed(1)}`;
    });
    const colour = colours[component.value];
    const state = component.problem ? " bad" : component.corrected ? " fixed" : "";
    const cell = svg(
      "g",
      {
        class: `cell${state}`,
        "data-component": name,
        tabindex: 0,
        role: "button",
        "aria-label": `${name}: ${colour ? colour.name : "empty"}`,
        onclick: () => onPick(component),
        onkeydown: (event) => {
          if (event.key === "Enter" || event.key === " ") onPick(component);
        },
      },
      svg("polygon", { points: corners.join(" "), fill: colour ? colour.srgb : PAPER }),
      colour ? svg("text", { x, y, class: "cell-letter" }, colour.letter) : null,
    );
    map.append(cell);
  }
  return map;
}

// A board's components: an Isle sheet as its map, any other as buttons showing each value's
// picture small (never a raw id), unread ones outlined red, corrected ones blue.
export function componentList(game, board, content, onPick) {
  const cells = board.components.filter((c) => c.component.startsWith("cell ("));
  const others = board.components.filter((c) => !c.component.startsWith("cell ("));
  const parts = [];
  if (game === "isle" && cells.length) parts.push(isleMap(content, board, onPick));
  const buttons = (game === "isle" ? others : board.components).map((c) =>
    el(
      "button",
      {
        type: "button",
        class: `component${c.problem ? " bad" : ""}${c.corrected ? " fixed" : ""}`,
        "data-component": c.component,
        title: c.problem || "",
        onclick: () => onPick(c),
      },
      valuePicture(game, c, content, 44),
      // A chip or a shade is known by its name; tiles and cards by their picture alone.
      game === "pigments" ? el("span", {}, c.value ?? "empty") : null,
      el("span", { class: "small" }, capital(c.component)),
    ),
  );
  if (buttons.length) parts.push(el("div", { class: "components" }, buttons));
  return parts;
}

// ---- the picker ----

// Opens the picker for one component in ``dialog``; resolves to the value chosen, or undefined
// when the player cancels. Color Field: tap a tile, turn it, Save. The others: a tap on a piece
// is the answer (Save keeps the choice shown, the best guess when nothing was tapped).
export function pick(dialog, { game, component, content, title }) {
  const choices = [...choicesFor(game, component.component, content), EMPTY];
  const likely = likelyIds(game, component, choices);
  const ordered = [
    ...likely.map((id) => choices.find((c) => c.id === id)),
    ...choices.filter((c) => !likely.includes(c.id)),
  ];
  const tiles = game === "colorfield";
  const read = tiles ? tileValue(component.value)?.tile : component.value;
  let chosen = likely.length ? likely[0] : (read ?? null);
  let rotation = tiles ? bestRotation(component) : 0;

  const grid = el("div", { class: "picker-grid", id: "fix-grid", role: "listbox" });
  const preview = el("div", { class: "chosen", id: "fix-chosen" });
  const showChosen = () => {
    for (const item of grid.children) {
      const on = item.dataset.value === String(chosen);
      item.classList.toggle("picked", on);
      item.setAttribute("aria-selected", String(on));
    }
    if (!tiles) return;
    const tile = content.tiles.find((t) => t.id === chosen);
    preview.replaceChildren(
      tile ? tilePicture(content, tile, rotation, 120) : emptyPicture(120),
      el("span", { class: "chosen-name" }, tile ? tile.id : "empty"),
    );
  };
  const turnAll = () => {
    for (const g of grid.querySelectorAll("g.turn")) {
      g.setAttribute("transform", `rotate(${rotation * 90} 50 50)`);
    }
  };
  const size = tiles ? 72 : game === "paintings" ? 70 : 64;
  grid.replaceChildren(
    ...ordered.map((choice) =>
      el(
        "button",
        {
          type: "button",
          class: `pick${likely.includes(choice.id) ? " likely" : ""}`,
          role: "option",
          "data-value": String(choice.id),
          onclick: () => {
            chosen = choice.id;
            showChosen();
            if (!tiles) dialog.close("save");
          },
        },
        choice.draw(size, rotation),
        el("span", { class: "pick-label" }, choice.label),
      ),
    ),
  );
  const search =
    choices.length > MANY
      ? el("input", {
          type: "search",
          id: "fix-search",
          placeholder: "Find by the id printed on it",
          autocomplete: "off",
          oninput: (event) => {
            const wanted = event.target.value.trim().toLowerCase();
            for (const item of grid.children) {
              const label = item.querySelector(".pick-label").textContent.toLowerCase();
              item.hidden = wanted !== "" && !label.includes(wanted);
            }
          },
        })
      : null;
  const rotate = tiles
    ? el(
        "button",
        {
          type: "button",
          id: "fix-rotate",
          "aria-label": "turn a quarter clockwise",
          onclick: () => {
            rotation = (rotation + 1) % 4;
            turnAll();
            showChosen();
          },
        },
        "↻ Turn",
      )
    : null;
  const hint = tiles
    ? "Tap the tile you see, turn it as it lies, then Save."
    : "Tap what you see.";
  const form = el(
    "form",
    { method: "dialog", class: "picker" },
    el("h2", { id: "fix-title" }, title),
    el("p", { class: "small" }, hint, likely.length ? " Likely pieces come first." : ""),
    tiles ? el("div", { class: "chosen-row" }, preview, rotate) : null,
    search,
    grid,
    el(
      "menu",
      {},
      el("button", { value: "cancel" }, "Cancel"),
      " ",
      el("button", { id: "fix-save", value: "save", class: "big" }, "Save"),
    ),
  );
  dialog.replaceChildren(form);
  showChosen();
  return new Promise((resolve) => {
    dialog.onclose = () => {
      if (dialog.returnValue !== "save") return resolve(undefined);
      if (chosen === null) return resolve(null);
      return resolve(tiles ? { tile: chosen, rotation } : chosen);
    };
    dialog.returnValue = "";
    dialog.showModal();
    const picked = grid.querySelector(".picked");
    if (picked) picked.scrollIntoView({ block: "nearest" });
  });
}
