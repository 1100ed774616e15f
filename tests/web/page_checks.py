"""Checks any page test can run on a page as a player sees it: no raw text (missing values, ids,
seat numbers, timings), no labels drawn over each other, and text readable against its
background (WCAG AA contrast)."""

from __future__ import annotations

import re

from playwright.sync_api import Page

# What a player should never read: a value the page failed to fill, an id or a seat number where
# a name or a picture belongs, the rotation sign, event numbers, and timings nobody asked for.
RAW = re.compile(
    r"\b(?:undefined|null|NaN)\b"  # a missing value printed as it is
    r"|\b[A-Z]\d?-\d+\b"  # a tile or card id: F-12, R2-23
    r"|\bSeat \d"  # a seat number instead of the player's name
    r"|#\d+"  # an event number
    r"|↻"  # a tile's rotation as a sign
    r"|\b\d+(?:\.\d+)? ?ms\b"  # a timing
)


def raw_text(page: Page) -> list[str]:
    """Each piece of raw text the page shows (what is visible: a closed "Details" may hold more)."""
    text = page.locator("body").inner_text()
    return sorted({match.group(0) for match in RAW.finditer(text)})


def assert_no_raw_text(page: Page) -> None:
    found = raw_text(page)
    assert found == [], f"raw text on {page.url}: {found}"


def overlaps(page: Page, selector: str) -> list[str]:
    """Pairs of the shown elements matching ``selector`` whose boxes intersect (by more than half
    a pixel), each as their two texts; animations are let finish first."""
    found: list[str] = page.evaluate(
        """async (selector) => {
            await Promise.all(document.getAnimations().map((motion) => motion.finished));
            const boxes = [...document.querySelectorAll(selector)]
                .map((node) => [node, node.getBoundingClientRect()])
                .filter(([, box]) => box.width > 0 && box.height > 0);
            const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
            const found = [];
            for (let i = 0; i < boxes.length; i++)
                for (let j = i + 1; j < boxes.length; j++)
                    if (hit(boxes[i][1], boxes[j][1]))
                        found.push(`${boxes[i][0].textContent} / ${boxes[j][0].textContent}`);
            return found;
        }""",
        selector,
    )
    return found


def assert_no_overlaps(page: Page, selector: str) -> None:
    found = overlaps(page, selector)
    assert found == [], f"{selector} overlap on {page.url}: {found}"


# For every element with text of its own: its text colour and the colour behind it (the first
# ancestor background that is not transparent, blended down through translucent ones onto
# white), whether the text is large (24px, or 18.67px bold), and the contrast ratio. Text drawn
# over a picture (a background image) has no one colour behind it and is left out, as is text
# in SVG pictures (drawn with a halo) and in closed or hidden parts.
CONTRAST = """() => {
    const parse = (value) => {
        const m = value.match(/rgba?\\(([^)]+)\\)/);
        if (!m) return null;
        const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
        return [r, g, b, a];
    };
    const over = (top, below) => [0, 1, 2].map((i) => top[i] * top[3] + below[i] * (1 - top[3]))
        .concat([1]);
    const behind = (node) => {
        const layers = [];
        for (let at = node; at; at = at.parentElement) {
            const style = getComputedStyle(at);
            if (style.backgroundImage !== "none") return null;
            const colour = parse(style.backgroundColor);
            if (colour && colour[3] > 0) {
                layers.push(colour);
                if (colour[3] >= 1) break;
            }
        }
        return layers.reverse().reduce((below, top) => over(top, below), [255, 255, 255, 1]);
    };
    const luminance = (rgb) => {
        const [r, g, b] = rgb.slice(0, 3).map((v) => {
            const c = v / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const found = [];
    for (const node of document.body.querySelectorAll("*")) {
        if (node.closest("svg, script, style, option, template")) continue;
        const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
        const shown = node.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
        if (!own || !shown) continue;
        const box = node.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        const back = behind(node);
        if (back === null) continue;
        const style = getComputedStyle(node);
        const text = over(parse(style.color), back);
        const [light, dark] = [luminance(text), luminance(back)].sort((a, b) => b - a);
        const ratio = (light + 0.05) / (dark + 0.05);
        const size = parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
        if (ratio < (large ? 3 : 4.5))
            found.push(`${node.textContent.trim().slice(0, 40)}: ${style.color} on ` +
                `rgb(${back.slice(0, 3).map(Math.round).join(", ")}), ${ratio.toFixed(2)}:1`);
    }
    return found;
}"""


def low_contrast(page: Page) -> list[str]:
    """Each shown text below WCAG AA contrast: 4.5:1, or 3:1 for large text."""
    found: list[str] = page.evaluate(CONTRAST)
    return found


def assert_contrast(page: Page) -> None:
    found = low_contrast(page)
    assert found == [], f"low contrast on {page.url}: {found}"
