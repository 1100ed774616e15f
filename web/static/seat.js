import { api, el, live, page } from "./live.js";
import { fittedLabel, widthOf } from "./labels.js";
import { componentList, loadContent, pick } from "./picker.js";

const SVG = "http://www.w3.org/2000/svg";
const SIDES = { N: [0, 1], E: [1, 2], S: [2, 3], W: [3, 0] };
let shownScan = null;

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// The picture with each component outlined: red when unread, blue when corrected by a person,
// green when it scored; matched tile sides drawn along their edges; points written inside.
function drawBoard(data) {
  const figure = document.getElementById("board");
  const view = data.view;
  if (!view) {
    figure.replaceChildren(el("p", { class: "small" }, "No picture of this board yet."));
    return;
  }
  const overlay = svg("svg", { viewBox: `0 0 ${view.width} ${view.height}`, class: "overlay" });
  const components = Object.fromEntries(data.board.components.map((c) => [c.component, c]));
  for (const [name, points] of Object.entries(view.regions)) {
    const read = components[name] || {};
    const mark = data.marks[name] || {};
    const state = read.problem ? "bad" : read.corrected ? "fixed" : mark.good ? "good" : "plain";
    overlay.append(
      svg("polygon", { points: points.map((p) => p.join(",")).join(" "), class: `region ${state}` }),
    );
    for (const side of mark.sides || []) {
      const [a, b] = SIDES[side].map((i) => points[i]);
      overlay.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "matched" }));
    }
    if (mark.text) {
      const x = points.reduce((s, p) => s + p[0], 0) / points.length;
      const y = points.reduce((s, p) => s + p[1], 0) / points.length;
      overlay.append(fittedLabel(mark.text, x, y, widthOf(points)));
    }
  }
  const image = el("img", { src: view.image, alt: "the board as last scanned", width: view.width });
  figure.replaceChildren(el("div", { class: "stack-view" }, image, overlay));
}

async function refresh() {
  const answer = await api(page.board);
  if (!answer.ok) return;
  const data = answer.data;
  // A total kept from an earlier board while this one needs a look says so.
  document.getElementById("total").textContent = `${data.total}${data.unsure ? " ?" : ""}`;
  if (data.board === null) return;
  shownScan = data.scan;
  drawBoard(data);
  document.getElementById("explanation").textContent = data.board.explanation || "";
  document
    .getElementById("warnings")
    .replaceChildren(...data.board.warnings.map((w) => el("li", {}, `${w.message} (${w.rule})`)));
  document
    .getElementById("problems")
    .replaceChildren(...data.board.problems.map((p) => el("li", {}, p)));
  if (fixList) showPieces(data);
}

// With the join link, the player corrects a misread piece here as on the scan page.
const fixList = document.getElementById("fix-list");
const pieces = fixList ? loadContent(page.content) : null;

async function showPieces(data) {
  const content = await pieces;
  const owner = data.player ? `${data.player.name}'s board` : "The board";
  fixList.replaceChildren(
    ...componentList(data.board.game, data.board, content, async (component) => {
      const value = await pick(document.getElementById("fix"), {
        game: data.board.game,
        component,
        content,
        title: `${owner} · ${component.component}`,
      });
      if (value === undefined) return;
      const answer = await api(page.corrections, {
        method: "POST",
        json: { scan: data.scan, seat: Number(page.seat), component: component.component, value },
      });
      document.getElementById("fix-message").textContent = answer.ok ? "" : answer.data.error;
      if (answer.ok) refresh();
    }),
  );
}

refresh();
live((data) => {
  if (!data.scores) return;
  const me = data.scores.players.find((p) => String(p.seat) === page.seat);
  if (me && (me.scan !== shownScan || data.scores.changed_seats.includes(me.seat))) refresh();
});

// A suggested move: what no camera sees, typed or picked, sent with the board the table holds.
const words = (text) => text.split(/[\s,]+/).filter(Boolean);
const ASKED = {
  colorfield: (form) => ({ tile: form.elements.tile.value.trim() }),
  paintings: (form) => ({ hand: words(form.elements.hand.value).map((card) => ({ card })) }),
  isle: (form) => {
    const hand = [...form.querySelectorAll('input[name="hand"]:checked')].map((box) => box.value);
    const roll = form.elements.roll.value;
    return roll ? { hand, roll: Number(roll) } : { hand };
  },
  pigments: (form) => ({
    crates: form.elements.crates.value.split("\n").map(words).filter((crate) => crate.length),
    spill_tray: words(form.elements.spill_tray.value),
    spill_line: Number(form.elements.spill_line.value || 0),
  }),
};
const suggest = document.getElementById("suggest");
if (suggest) {
  suggest.addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await api(suggest.dataset.url, {
      method: "POST",
      json: ASKED[suggest.dataset.game](suggest),
    });
    document.getElementById("suggest-error").textContent = answer.ok ? "" : answer.data.error;
    document.getElementById("advice").textContent = answer.ok ? answer.data.explanation : "";
  });
}
