import { api, el, live, page } from "./live.js";
import { fittedLabel, widthOf } from "./labels.js";
import { capital, componentList, loadContent, pick } from "./picker.js";

const SVG = "http://www.w3.org/2000/svg";
const SIDES = { N: [0, 1], E: [1, 2], S: [2, 3], W: [3, 0] };
let shownScan = null;

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// The picture with each component outlined: red when unread, blue when corrected by a person,
// green when it scored; matched tile edges drawn along them; points written inside. A tap on a
// misread piece (red) opens the picker when the page may correct; on any other piece it finds
// the piece's lines in the explanation.
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
    const region = svg("polygon", {
      points: points.map((p) => p.join(",")).join(" "),
      class: `region ${state}`,
      "data-component": name,
    });
    region.addEventListener("click", () => {
      if (read.problem && fixList) correct(data, read);
      else showLinesOf(name);
    });
    overlay.append(region);
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

// ---- the explanation, linked to the picture ----

const explained = document.getElementById("explanation");
// What was tapped last, kept across refreshes: the components lit and the lines (by index).
let chosen = { marks: [], lines: [] };

function pointsWord(points) {
  return `${points} point${Math.abs(points) === 1 ? "" : "s"}`;
}

function pointsCell(points) {
  if (points === null) return el("span", { class: "pts" });
  const shown = points > 0 ? `+${points}` : String(points);
  return el("span", { class: "pts", "aria-label": pointsWord(points) }, shown);
}

// Lights the components named on the picture and in the piece list, and the given lines.
function light(marks, lines) {
  for (const node of document.querySelectorAll("#board .lit, #fix-list .lit, #explanation .lit")) {
    node.classList.remove("lit");
  }
  for (const line of explained.querySelectorAll("[aria-pressed]")) {
    line.setAttribute("aria-pressed", "false");
  }
  for (const name of marks) {
    const named = `[data-component="${CSS.escape(name)}"]`;
    for (const node of document.querySelectorAll(`#board ${named}, #fix-list ${named}`)) {
      node.classList.add("lit");
    }
  }
  for (const index of lines) {
    const line = explained.querySelector(`[data-line="${index}"]`);
    if (!line) continue;
    line.classList.add("lit");
    if (line.hasAttribute("aria-pressed")) line.setAttribute("aria-pressed", "true");
  }
}

function choose(marks, lines) {
  chosen = { marks, lines };
  light(marks, lines);
}

// A tap on a piece: its lines lit and the first scrolled into view.
function showLinesOf(name) {
  const lines = [...explained.querySelectorAll(".explain-line")]
    .filter((line) => JSON.parse(line.dataset.marks).includes(name))
    .map((line) => line.dataset.line);
  choose([name], lines);
  const first = lines.length ? explained.querySelector(`[data-line="${lines[0]}"]`) : null;
  if (first) first.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

function explanationLine(line, index) {
  const marks = JSON.stringify(line.marks);
  const linked = line.marks.length > 0;
  const pick = () => {
    const again = chosen.lines.length === 1 && chosen.lines[0] === index;
    if (again) choose([], []);
    else choose(line.marks, [index]);
  };
  return el(
    "li",
    {
      class: `explain-line ${line.good ? "good" : "bad"}`,
      "data-line": index,
      "data-marks": marks,
      ...(linked
        ? {
            tabindex: 0,
            role: "button",
            "aria-pressed": "false",
            onclick: pick,
            onkeydown: (event) => {
              if (event.key !== "Enter" && event.key !== " ") return;
              event.preventDefault();
              pick();
            },
            onmouseenter: () => light(line.marks, [index]),
            onmouseleave: () => light(chosen.marks, chosen.lines),
          }
        : {}),
    },
    el(
      "span",
      { class: "sign", role: "img", "aria-label": line.good ? "scores" : "does not score" },
      line.good ? "✓" : "✗",
    ),
    el("span", { class: "text" }, line.text),
    pointsCell(line.points),
  );
}

function showExplanation(data) {
  const sections = data.explanation_lines;
  document.getElementById("explain").hidden = sections.length === 0;
  document.getElementById("explain-hint").hidden = !data.view;
  explained.replaceChildren(
    ...sections.map((section, s) =>
      el(
        "section",
        { class: "explain-section" },
        el("h3", {}, el("span", { class: "text" }, section.title), pointsCell(section.points)),
        el(
          "ul",
          { class: "explain-lines" },
          section.lines.map((line, l) => explanationLine(line, `${s}.${l}`)),
        ),
      ),
    ),
  );
  light(chosen.marks, chosen.lines);
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
  showExplanation(data);
  document
    .getElementById("warnings")
    .replaceChildren(...data.board.warnings.map((w) => el("li", {}, capital(w.message))));
  document
    .getElementById("problems")
    .replaceChildren(...data.board.problems.map((p) => el("li", {}, p)));
  if (fixList) showPieces(data);
}

// With the join link, the player corrects a misread piece here as on the scan page.
const fixList = document.getElementById("fix-list");
const pieces = fixList ? loadContent(page.content) : null;

async function correct(data, component) {
  const content = await pieces;
  const owner = data.player ? `${data.player.name}'s board` : "The board";
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
}

async function showPieces(data) {
  const content = await pieces;
  fixList.replaceChildren(
    ...componentList(data.board.game, data.board, content, (component) => correct(data, component)),
  );
  light(chosen.marks, chosen.lines);
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
  const advice = document.getElementById("advice");
  suggest.addEventListener("submit", async (event) => {
    event.preventDefault();
    // Looking a round ahead on an open Isle sheet takes seconds: say so, and take no second ask.
    const buttons = suggest.querySelectorAll("button");
    for (const button of buttons) button.disabled = true;
    suggest.setAttribute("aria-busy", "true");
    advice.textContent = "Thinking…";
    try {
      const answer = await api(suggest.dataset.url, {
        method: "POST",
        json: ASKED[suggest.dataset.game](suggest),
      });
      document.getElementById("suggest-error").textContent = answer.ok ? "" : answer.data.error;
      advice.textContent = answer.ok ? answer.data.explanation : "";
    } finally {
      for (const button of buttons) button.disabled = false;
      suggest.removeAttribute("aria-busy");
    }
  });
}
