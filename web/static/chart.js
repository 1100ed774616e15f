// A small SVG line chart of running totals: one line per player in their colour, a marker shape
// of their own at each step (a second cue besides colour) and their name at the line's end.

const SVG = "http://www.w3.org/2000/svg";
const SHAPES = ["circle", "square", "triangle", "diamond", "star"];
const LABEL_WIDTH = 56; // room an x-axis label such as "Scan 12" needs, in chart units

// steps: the x-axis labels ("Round 1"...); series: [{key, name, colour, shape, values}], where
// shape is the player's index among the table's players and values one total per step.
export function lineChart(steps, series) {
  const count = steps.length;
  const top = Math.max(10, ...series.flatMap((s) => s.values));
  const step = niceStep(top);
  const ceiling = Math.ceil(top / step) * step;
  const [w, h, left, right, up, down] = [420, 240, 40, 90, 14, 30];
  const span = w - left - right;
  const x = (r) => left + (count === 1 ? span / 2 : (r * span) / (count - 1));
  const y = (v) => up + (h - up - down) * (1 - v / ceiling);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("role", "img");
  svg.setAttribute(
    "aria-label",
    series.map((s) => `${s.name}: ${s.values.join(", ") || "no score yet"}`).join("; "),
  );
  const add = (parent, tag, attrs, text) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    parent.append(node);
    return node;
  };
  for (let v = 0; v <= ceiling; v += step) {
    add(svg, "line", { class: "grid", x1: left, x2: w - right + 10, y1: y(v), y2: y(v) });
    add(svg, "text", { class: "axis", x: left - 6, y: y(v), "text-anchor": "end" }, String(v));
  }
  // Many steps: every few labelled, so no label runs into the next.
  const every = count > 1 ? Math.ceil(LABEL_WIDTH / (span / (count - 1))) : 1;
  for (let r = 0; r < count; r += every) {
    const attrs = { class: "axis", x: x(r), y: h - 8, "text-anchor": "middle" };
    add(svg, "text", attrs, steps[r]);
  }
  const labels = [];
  for (const s of series) {
    const run = s.values;
    if (!run.length) continue;
    const group = add(svg, "g", {
      class: "series",
      "data-seat": s.key,
      style: `--colour: ${s.colour}`,
    });
    add(group, "polyline", { points: run.map((v, r) => `${x(r)},${y(v)}`).join(" ") });
    run.forEach((v, r) => {
      const mark = marker(add, group, SHAPES[s.shape % SHAPES.length], x(r), y(v));
      mark.setAttribute("class", "point");
      mark.setAttribute("data-step", r + 1);
      add(mark, "title", {}, `${s.name}, ${steps[r].toLowerCase()}: ${v}`);
    });
    const end = run.length - 1;
    const text = `${s.name.slice(0, 8)} ${run[end]}`;
    labels.push({ group, x: x(end) + 10, y: y(run[end]), text });
  }
  // Each line named at its end; names of equal totals are spread apart so none hides another.
  labels.sort((a, b) => a.y - b.y);
  const GAP = 14;
  labels.forEach((label, i) => {
    if (i > 0) label.y = Math.max(label.y, labels[i - 1].y + GAP);
  });
  const overflow = labels.length ? labels[labels.length - 1].y - (h - down) : 0;
  for (const label of labels) {
    const attrs = { class: "end-label", x: label.x, y: label.y - Math.max(0, overflow) };
    add(label.group, "text", attrs, label.text);
  }
  return svg;
}

function niceStep(top) {
  for (const step of [5, 10, 20, 25, 50, 100]) if (top / step <= 6) return step;
  return 200;
}

function marker(add, parent, shape, cx, cy) {
  const r = 5.5;
  if (shape === "square") {
    return add(parent, "rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r });
  }
  const points = {
    triangle: [[0, -r * 1.2], [r * 1.1, r * 0.8], [-r * 1.1, r * 0.8]],
    diamond: [[0, -r * 1.3], [r * 1.3, 0], [0, r * 1.3], [-r * 1.3, 0]],
    star: [
      [0, -r * 1.4],
      [r * 0.4, -r * 0.4],
      [r * 1.4, 0],
      [r * 0.4, r * 0.4],
      [0, r * 1.4],
      [-r * 0.4, r * 0.4],
      [-r * 1.4, 0],
      [-r * 0.4, -r * 0.4],
    ],
  }[shape];
  if (!points) return add(parent, "circle", { cx, cy, r });
  const corners = points.map(([dx, dy]) => `${cx + dx},${cy + dy}`).join(" ");
  return add(parent, "polygon", { points: corners });
}
