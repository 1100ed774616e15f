// The player chip every page draws the same way.

import { el } from "./live.js";

// Black or white, whichever reads better on the player's colour (WCAG relative luminance).
export function inkOn(hex) {
  const channel = (i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const light = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return light > 0.179 ? "#000" : "#fff";
}

// The player's colour with their initial on it, so a colour is never the only cue.
export function badge(p) {
  return el(
    "span",
    {
      class: "initial",
      style: `background: ${p.colour}; color: ${inkOn(p.colour)}`,
      "aria-hidden": "true",
    },
    p.name.slice(0, 1).toUpperCase(),
  );
}
