import { inkOn } from "./badge.js";
import { api, el, page } from "./live.js";

const shade = document.getElementById("shade");
const pan = document.getElementById("pan");
const chipsShown = document.getElementById("pan-chips");
const verdict = document.getElementById("verdict");
// The card's recipe is on its back: it is asked for, and shown, only while this box is ticked.
const reveal = document.getElementById("reveal");
let chips = [];
let slots = {};
let looks = {}; // each chip's colour, from the pieces the picker draws
// Answers can arrive out of order when chips are tapped quickly; only the latest question's
// answer may be shown, or a slow answer about an earlier pan would overwrite the current one.
let asked = 0;

async function check() {
  const question = ++asked;
  chipsShown.replaceChildren(...(chips.length ? chips.map(chipMark) : ["nothing yet"]));
  if (!chips.length) {
    verdict.replaceChildren();
    return;
  }
  const answer = await api(page.check, {
    method: "POST",
    json: { shade: shade.value, pan: pan.value, chips, reveal: reveal.checked },
  });
  if (question !== asked) return;
  if (!answer.ok) {
    verdict.replaceChildren(el("p", { class: "error" }, answer.data.error));
    return;
  }
  const result = answer.data;
  const recipe = result.shade.recipe
    ? [el("p", { id: "card-recipe" }, `${result.shade.name}'s recipe: ${result.shade.recipe.join(" + ")}`)]
    : [];
  verdict.replaceChildren(
    // The sentence and a tick or a cross say it: the colour is only a third cue.
    el("p", { class: `verdict-word ${result.pressed ? "good" : "bad"}`, id: "verdict-word" }, result.says),
    el("p", {}, el("span", { class: "swatch big-swatch", style: `background: ${result.colour.srgb}` }), ` ${result.colour.shade || "no catalogue shade"}`),
    ...recipe,
    el("pre", { class: "explanation" }, result.explanation),
  );
}

// A chip as it looks, its name written on its own colour: the colour is never the only cue.
function chipMark(chip) {
  const colour = looks[chip] || "#ffffff";
  return el("span", { class: "chip-mark", style: `background: ${colour}; color: ${inkOn(colour)}` }, chip);
}

async function start() {
  const [answer, pieces] = await Promise.all([api(page.catalogue), api(page.content)]);
  const catalogue = answer.data;
  if (pieces.ok) looks = Object.fromEntries(pieces.data.chips.map((c) => [c.name, c.srgb]));
  shade.replaceChildren(...catalogue.shades.map((s) => el("option", { value: s.name }, s.name)));
  pan.replaceChildren(...catalogue.pans.map((p) => el("option", { value: p.name }, `${p.name} (${p.slots} slots)`)));
  slots = Object.fromEntries(catalogue.pans.map((p) => [p.name, p.slots]));
  document.getElementById("chips").replaceChildren(
    ...catalogue.chips.map((chip) =>
      el(
        "button",
        {
          type: "button",
          class: "chip",
          "data-chip": chip,
          style: looks[chip] ? `background: ${looks[chip]}; color: ${inkOn(looks[chip])}` : "",
          onclick: () => {
            if (chips.length < slots[pan.value]) chips.push(chip);
            check();
          },
        },
        chip,
      ),
    ),
  );
  reveal.addEventListener("change", check);
  for (const control of [shade, pan]) control.addEventListener("change", () => {
    chips = chips.slice(0, slots[pan.value]);
    check();
  });
  document.getElementById("clear").addEventListener("click", () => {
    chips = [];
    check();
  });
  check();
}

start();
