// A mark's words over a board picture, kept inside its component's width: on two lines when
// long (the words, then the points), and smaller when even a line would spill into the next
// component's label.
const SVG = "http://www.w3.org/2000/svg";
const LARGEST = 22; // the label's size where it fits, in the picture's units
const GLYPH = 0.62; // a bold character's width as a share of its size, a little generous
const LINE = 1.1;

// The two lines whose longer one is shortest (one line for a single word).
function twoLines(text) {
  const words = text.split(" ");
  let best = [text];
  for (let i = 1; i < words.length; i++) {
    const pair = [words.slice(0, i).join(" "), words.slice(i).join(" ")];
    if (Math.max(...pair.map((l) => l.length)) < Math.max(...best.map((l) => l.length))) best = pair;
  }
  return best;
}

export function fittedLabel(text, x, y, width) {
  const oneLine = text.length * GLYPH * LARGEST <= width;
  const shown = oneLine ? [text] : twoLines(text);
  const widest = Math.max(...shown.map((line) => line.length));
  const size = Math.min(LARGEST, width / (widest * GLYPH));
  const label = document.createElementNS(SVG, "text");
  label.setAttribute("class", "label");
  label.setAttribute("x", x);
  label.setAttribute("y", y - ((shown.length - 1) * LINE * size) / 2);
  label.style.fontSize = `${size.toFixed(1)}px`;
  shown.forEach((line, i) => {
    const span = document.createElementNS(SVG, "tspan");
    span.setAttribute("x", x);
    if (i) span.setAttribute("dy", `${LINE * size}`);
    span.textContent = line;
    label.append(span);
  });
  return label;
}

// The width of a component's outline, from its corner points.
export function widthOf(points) {
  const xs = points.map((p) => p[0]);
  return Math.max(...xs) - Math.min(...xs);
}
