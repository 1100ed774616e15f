"""What lies over an Isle of Colors sheet: hands and cups.

Hands and cups have pencil colours too, so they are told from hatching by what they are:

- **Reaching the margin.** The bare margin shows only paper, so whatever of another hue lies
  there, traced as the connected region of its colour, covers the cells it reaches (a hand
  over a corner), where it is wider than a stroke (hatching of its colour beside it would join
  it stroke by stroke). Things touching there (a hand against a cup) are traced each by its own
  colour.
- **Smooth.** Hatching is strokes with paper between them, each cell ringed by its printed
  outline. A cup or a hand is smooth: a smooth region, of another hue than the paper's or darker
  than the paper around it (in the channels the sensor measures on the paper: a warm light clips
  red on paper and a white cup's side alike; and with it what is smooth and a little darker
  joined to it: a white cup's side lit from one side is barely darker at its paler end), or on
  the island of the paper's hue and below the sensor's limit however bright (a white cup's
  side), with no printed outline showing inside it, is part of something over the sheet (a
  shadow is as smooth, but the outlines show through it: through a region of the paper's hue,
  the printed grid's own pattern must show, significantly and at least 0.4 as strongly as on the
  lit bare paper, however faint blur leaves it there, or half as strongly and less significantly
  over the few outlines a shadow cast on the margin crosses; a white cup hides it; where blur
  leaves the grid too faint to tell, a part of the paper's hue beside a hand found reaching in
  is its shadow when darker than a white cup is, and no darker than a shadow, or when it fades
  from lit paper to a shadow's depth, darkest towards the hand). A part is of one hue: blurred
  hatching as smooth as a cup of another colour beside it is a part of its own, and shows its
  outlines; hatching of the cup's own colour joins its part, and is told by the cells whose
  outlines stand out in it: without them, the rest hides its outlines altogether, over the
  cells lying mostly within it too (where its edge crosses cells, the lines beside it show
  darker than not at all, and would cancel out hatching's faint showing). Such parts close
  together (a cup's side and its coffee, parted by the rim's edge) that together are larger
  than a few cells are one thing. A plain part across its rim from one is part of it too
  when it hides the printed grid and, if small, lies across several cells or, tinted, largely
  beyond the island, or, of the paper's hue and shaded as a white cup's side, across two on it:
  a sliver of a cup's side (hatching keeps within its cell's outline, and shows it or its bare
  seams). A smooth region on the island alone that reaches only cells read cleanly as pencils
  (or under something else found, which tells nothing of it), ringed by cells read cleanly, is
  their hatching, however plain blur leaves it; so are cells of one pencil that it reaches at
  its edge, showing their outlines, when what lies beyond them is in plain view, at the thing's
  edge too, read as another pencil with its outline showing, or under the thing and refused
  (blurred hatching joins the smooth surface of a hand or a cup beside it, but a hand hides the
  outlines it lies over, and a cup over part of a cell the edges it lies over). Whatever lies
  beyond, a cell read cleanly as a pencil where what was found stops at its outline on three of
  its edges is hatching: it ends where its cell does, and a cup or a hand is round; so is one
  that does once the hatching so found is taken from what was found (hatching of a hand's colour
  joins the hand cell by cell).
- **Outlines missing.** Several adjacent cells read alike whose outlines do not show (two bare
  cells, when they hide theirs about altogether): under a cup that looks like a pencil, or like
  paper; with a pencil's, the cells read alike around them (its rim), but for a cell that shows its
  outline (hatching beside the cup), or that borders them at one edge only and shows its outline
  faintly: the cup hides the outline it lies over, and one edge is all a cell beside it shares with
  the cells it hides. Bare cells around a white cup are left to what shows over them: its side hides
  the printed grid (found as smooth), and bare paper beside it looks as it would under the rim.
  Cells of one pencil whose every neighbour is read as paper or another pencil are hatching, however
  blur smooths it: a cup is round, and lies in part over the cells around it. So is a cell among
  or around them that nothing found lies over, rough with strokes: a cup is smooth.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.observation import ComponentRead as Read
from vision.scan.colours import column_median
from vision.scan.readers.isle_sheet import (
    BOUND_SLACK,
    COARSE_PPM,
    LINE_BLUR_MM,
    SHEET_PPM,
    Floats,
    Mask,
    SheetMaps,
    coarse,
    disc,
    log_planes,
    paper_hue_distance,
)

# Reaching the margin: another hue than the paper's (log units), and the connected region of
# that colour (hue and brightness).
FOREIGN_HUE = 0.06
LEAST_BLOB = 30.0  # mm^2
SAME_COLOUR = (0.08, 0.25)
# That region is opened (mm across) before it is traced: a hand, a cup, even a cup's side seen
# as a crescent beside its rim, is wider; strokes of its colour with paper between them are
# not, and a hand as brown as the pencil would be traced along them into the cells beyond.
OPENED_MM = 3.0
# What one colour leaves of a part of the margin is another thing (a hand touching a cup, or a
# hand's darker side) where it is this wide (mm across) and this large: a thing's blurred edge, a
# mix of its colour and the paper's, may be wide in heavy blur, but is a band, never so large.
# Only one more: a third colour is a blurred edge's, and peeling colour after colour off it
# walks its gradient out over the cells beside the thing. On 3,400 hard tuning renders, three
# boards more were read exactly and none was lost; cells read wrong fell from 5 to 2.
NEXT_MM = 6.0
NEXT_LEAST = 200.0  # mm^2
COLOURS_TRACED = 2
# A hand or a cup is smooth: at least this share of what lies on the margin is as smooth as
# paper (``smooth_surface``). Strokes blurred on to the margin and a shadow's tinted edge are rough,
# and were traced into cells in plain view; at 0.2, 4 boards of 2,400 hard renders were read
# exactly that were not before, and none was lost.
SMOOTH_SEED = 0.2
# A cell read as a pencil among or around cells taken for a cup's (``smooth_blobs``), that nothing
# found over the sheet lies over, is hatching beside the cup where less than this share of it is
# smooth: a cup is. On 1,824 hard tuning renders, of the 2,403 such cells, ten had nothing found
# over them: the two in plain view were 0.05 and 0.16 smooth; under an unfound cup, 0.35 and more
# (six read red under a red cup, 0.97 and more).
SMOOTH_CELL = 0.2
COVERED_SHARE = 0.03  # a cell this much under something is covered
# Something found over a sliver of a cell (from TOUCHED_SHARE of it) may be the found edge of a
# cup or a hand lying, unfound, over more of it: the cell is covered unless its outline shows or
# it reads at least BESIDE_SURE sure. On 4,400 hard tuning renders, the 77 cells so touched that
# read cleanly, less surely and outline hidden, all lay in part under a thing, and two of them
# were read wrong (a hand over 64 % of a bare cell, read brown 0.87 sure; a cup's rim over 29 % of
# a blue cell, read bare 0.70 sure); the cells in plain view so touched read 0.94 sure and more,
# or showed their outlines. Less is a thing's blurred edge: one in plain view, 0.8 % touched,
# read 0.89 sure.
TOUCHED_SHARE = 0.01
# Hatching ends where its cell does: what was found over the sheet stops at a cell's printed
# outline (over STOP_MM inside it, not STOP_MM beyond, along STOPS_ALONG of the edge's points) on
# at least STOPPED_EDGES of its edges. A round cup's edge runs along one edge of a cell, even
# two by chance; a hand's no more. The cells found so are then taken from what was found, once:
# the hatching beside them, joined to them and to a hand, may stop at its outline only there
# (on 3,400 hard tuning renders, no board changed and eight fewer cells were refused; on 1,000
# fresh ones, two boards more were read exactly).
STOP_MM = 3.0
STOPS_ALONG = 0.8
STOPPED_EDGES = 3
# Hatching may also run on into a cell of its pencil beside it, towards the thing blur joins it
# to: what was found lies beyond such a cell's outline only across the edges it shares with cells
# read cleanly as its pencil, and stops at its outline on one edge at least. A thing over part
# of a cell crosses the outline where it comes in; one over most of it makes the cells around
# read as its colour, so that it seems to run on into them: it lies over at most RUN_ON_SHARE of
# a cell whose hatching runs on. Of the cells read cleanly, at least EDGE_SURE sure, under
# something found so on 3,200 hard tuning renders, the 7 under 0.41 to 0.70 of it were all read
# right; of the 36 under 0.72 or more, 26 were read wrong (under a cup, as its colour). So, 3
# more of 5,400 hard tuning renders were read exactly and none fewer. Over no more than
# RUN_ON_SLIVER of the cell, what was found need not stop at its outline anywhere: were it a
# thing coming in, so little of it would hardly mix with the cell's pencil. Of the cells so
# found on the same renders, the 53 under at most 0.25 of it were all read right, and the first
# read wrong lay under 0.36 (a hand over two thirds of a bare cell, read brown). On 1,000 fresh
# hard renders one board more was read exactly, and none fewer on 5,400 others.
RUN_ON_SHARE = 0.6
RUN_ON_SLIVER = 0.25
# A thing beside a cell, its edge along the cell's outline or across a corner, spills over the
# outline by its blur: what was found reaches nowhere STOP_MM inside the outline (at the points
# along its edges, clear of the corners). Such a cell read cleanly at least EDGE_SURE sure is read
# from what shows of it: on 600 hard renders, the three such cells in plain view were read 0.89
# sure and more, and the two read wrong 0.61 and 0.77 sure (a hand over more of the cell than was
# found). Not a cell read bare, unless a cup's found rim is all that reaches it: a white cup's side
# over it, found only by the coffee beside it, is as plain as paper, but a cup whose rim was found
# lies within its rim. On 3,400 hard tuning renders, three boards more were read exactly and none
# was lost. Of the cells read bare so spilled over on 3,200, the 87 that only a rim reached were
# all read right, and one that a hand traced from the margin reached was read wrong; reading
# those, two boards more of 5,400 were read exactly and none fewer.
EDGE_SURE = 0.85
# Hatching beside a hand lies at its edge: at least this share of the cells around it are in
# plain view (a cell the hand rings is under it). It is read surely: a hand or a cup over part
# of a cell mixes with its pencil. On 1,100 hard tuning renders, the cells taken for hatching
# beside a thing that lay in plain view were read 0.935 sure and more; those read less than 0.9
# sure all lay in part under it, and two were read as the wrong pencil (0.52 and 0.63 sure).
PLAIN_VIEW = 0.5
BESIDE_SURE = 0.9
# Smooth: window (mm), how much rougher than the margin's paper smooth may be, another hue
# (log units) or darker than the brightest paper around (log units, within LIT_MM), the least
# area (a cup is far larger), and how significant the outlines inside must be to show.
SMOOTH_MM = 5
ROUGHER = 2.5
QUIETEST = 1.0  # grey levels: no sensor is quieter (a clean synthetic face would be)
OTHER_HUE = 0.15
DARKER = 0.1
# ...and all that is smooth and at least this much darker joined to it: a white cup's side, lit
# from one side, passes from darker than that to barely darker, and would be cut in two parts
# each too small to be a thing.
FAINTER = 0.05
LIT_MM = 41  # odd: centred
# How dark is judged in the channels the sensor measures on the paper: one clipped on more than
# this share of the margin's paper is as bright over a white cup's shaded side as over the paper
# (a warm light clips red), and would leave the side, averaged with it, a third less dark.
PAPER_CLIPPED = 0.5
LEAST_OBJECT = 1000.0  # mm^2
LEAST_PART = 800.0  # mm^2: a part of one, such as a cup's side seen beside its coffee
# Where the hue changes this much per mm (log units, smoothed over EDGE_SIGMA), on a surface
# lit at least HUE_LIT (grey levels), one tinted surface ends and another begins.
HUE_EDGE = 0.06
EDGE_SIGMA = 1.0  # mm
HUE_LIT = 60.0
# Across a cup's rim (ACROSS_RIM_MM) from such a thing, a plain part is part of it too when it
# hides the printed grid (it shows there at most SIDE_GRID as clearly as on lit bare paper, where
# hatching shows it as clearly, or its bare seams): a sliver of the cup's side beside its
# coffee. A smaller part counts so only lying across SIDE_CELLS cells, SIDE_SHARE of each at
# least: a region this small may be a cell or two that blur leaves smooth, but hatching keeps
# within its cell's outline.
ACROSS_RIM_MM = 12.0
SIDE_GRID = 0.75
# Bare seams between hatched cells show the grid inverted (brighter than around), and strongly:
# on 1,400 hard renders, parts in plain view so inverted measured 1.97 times lit paper's response
# and more. A cup's side, shaded unevenly, meets the grid's pattern by chance either way: parts
# over hidden cells measured down to 1.3 times it, inverted.
SEAMS_GRID = 1.6
LEAST_SIDE = 250.0  # mm^2
SIDE_CELLS = 3
SIDE_SHARE = 0.1
# ...or, tinted, lying this share beyond the island: hatching keeps within its cells. (Of the
# paper's hue, it may be a shadow on the margin, where no grid shows to tell it from a cup.)
# Such slivers lying over hidden cells were 0.30 and more beyond it on 1,000 hard renders.
BEYOND_ISLAND = 0.25
# ...or, of the paper's hue, lying across PAPER_SIDE_CELLS cells on the island (less than
# BEYOND_ISLAND beyond it), its median pixel darker than lit paper (LIT_PAPER) and no darker than
# WHITE_SIDE: a white cup's side, shaded. Lit as the paper is, a plain part over a cell or two is
# bare paper between the outlines; darker, it is a shadow (the parts of the paper's hue lying
# under a thing on 4,400 hard tuning renders were at most 0.35 darker). Of such slivers hiding the
# grid on 3,400 of them, the three lying under nothing were lit (0.00 darker), the seven under a
# thing 0.03 to 0.19 darker (those paler than LIT_PAPER, as pale as lit paper may be, are left to
# what else finds the thing); on the other 1,000, one in a shadow beside a hand was 0.44 darker.
PAPER_SIDE_CELLS = 2
WHITE_SIDE = 0.35
OUTLINES_SHOW = 3.5  # t statistic
# ...and by this much (in the spread's units) on the outlines' every pixel: blur ties pixels
# together, so over a cup's smooth body thousands of pixels large the slightest shading along
# the lines is significant; hatching made smooth by blur shows its outlines far more.
LINE_EFFECT = 0.19
LEAST_LINE_PX = 20
# A tinted part whose outlines show may be a cup that hatching of its colour, blurred as smooth,
# joins: the cells whose outlines stand out in it (by PEELED_EFFECT in the spread's units, over
# PEELED_PX of their line or more) are the hatching, and the rest is a thing when it is as large
# as one and shows its outlines not at all (by less than HIDDEN_EFFECT either way). On 2,400
# hard renders, 4 boards were read exactly that were not before, and none was lost.
PEELED_EFFECT = 0.5
PEELED_PX = 10
HIDDEN_EFFECT = 0.1
# The part's blurred edge, where it crosses cells, shades the lines beside it: the fragments of
# cells there may show their outlines less than not at all, and cancel out a faint showing over
# the rest. The cells lying MOSTLY within the rest must hide theirs too, by less than
# WHOLE_HIDDEN (in the same units, together). Of the 14 rests taken for things on 4,160 hard
# tuning renders, the seven with such cells showed theirs by -0.02 to 0.06; red hatching joined
# into one part with nothing over it (its fragments at -0.2 to -0.9), by 0.34.
MOSTLY = 0.5
WHOLE_HIDDEN = 0.2
# Through a part of the paper's hue, the printed grid must show at least this share as clearly
# as on the lit bare paper of the island (a shadow darkens outline and paper alike), and
# significantly (t statistic). Blurred shadows in plain view showed it 0.41-0.45 as clearly (at
# t 4.8-5.8), or over few outlines at t 2.6-3.4 (two lying mostly on the margin), and were taken
# for white cups at 0.5 and OUTLINES_SHOW (3.5). At these limits, 8 boards of 1,400 hard renders
# were released, and no cell under a cup was read wrong.
SHADOW_GRID = 0.4
SHADOW_SHOWS = 2.5
# A shadow lying mostly on the margin crosses few outlines, so the grid shows there with little
# significance however clearly: at least HALF_GRID as clearly as on lit paper at t FAINT_SHOWS
# is enough. On 1,700 hard renders, four shadows lying mostly on the margin showed it 0.51-0.64
# as clearly at t 1.6-1.9, and were taken for cups. Of 235 parts taken for cups over covered
# cells, one showed it as clearly at such a t (its board is still read exactly), and none other
# more than 0.47 as clearly.
HALF_GRID = 0.5
FAINT_SHOWS = 1.5
# Blurred, the grid shows through a shadow too faintly to tell it from a thing; a hand's shadow
# then shows by how dark it is. A part of the paper's hue within CAST_MM of a hand found reaching
# in from the margin is its shadow when it is darker than a thing of the paper's hue is, by
# DEEP_SHADOW (log units; its median pixel, against the brightest paper around) to
# DARKEST_SHADOW (the room's light still reaches a shadow; a black thing is darker), unless the
# grid, which would show there at t GRID_CLEAR were it as clear as on lit paper, shows less than
# SHADOW_GRID as clearly. A white cup's side is 0.8 of its white (0.25 darker than the paper),
# its inside 0.7 (0.38). Of the parts of the paper's hue taken for things on 4,400 hard tuning
# renders, the 427 lying under one measured at most 0.35 darker; the 22 lying under none
# (shadows, the grid showing through them at most 0.49 as clearly as on lit paper), 0.27 to
# 0.74. Away from a hand, a grey thing as dark is judged by the grid alone: under one, blurred,
# bare paper is all that shows, and is read so.
DEEP_SHADOW = 0.45
DARKEST_SHADOW = 1.2
# A shadow's penumbra fades from lit paper to a shadow's depth, darkest towards the hand that
# casts it: such a part is its shadow too when its lightest tenth is at most PENUMBRA[0] darker
# than lit paper, and its darkest tenth PENUMBRA[1] to DARKEST_SHADOW darker and nearer the hand.
# Of the parts of the paper's hue lying under a thing on 4,400 hard tuning renders, the darkest
# tenth measured at most 0.58 darker, and there lay farther from the hand than the lightest: by
# the hand, it tells a penumbra. Of three penumbrae taken for things beside a hand, it measured
# 0.67 to 0.70; a fainter shadow's (its lightest tenth 0.12 darker than lit paper), 0.41.
PENUMBRA = (0.15, 0.35)
# How dark a part is, as a shadow, is judged against the brightest paper in a square
# SHADOW_LIT_MM across about each pixel: a cup's shadow is as wide as the cup, and the brightest
# paper in one LIT_MM across about its middle lies in the shadow too, leaving it far less dark
# than it is (in one such shadow, 0.38 darker than lit paper in the median, its darkest tenth
# 0.75). Paper lit in full lies farther off. Only the shadow's depth is judged so: nearer paper
# tells better how the light falls on what is smooth and darker (judged so too, 3 boards of
# 3,400 hard tuning renders were lost and 1 gained). So, 3 more of 5,400 hard renders were read
# exactly and none fewer.
SHADOW_LIT_MM = 61  # odd: centred
GRID_CLEAR = 8.0
CAST_MM = 15.0
LIT_PAPER = 0.05  # log units: bare paper this close to the brightest around is lit
# Outlines missing: fainter than this (log units) on a pencil's cell; on a bare cell, fainter
# than this share of the sheet's bare cells (of which at least LEAST_BARE), unless MOST_BRIGHT
# of it is near the sensor's limit; in a group of SMOOTH_GROUP cells.
NO_OUTLINE = 0.015
FAINT_OUTLINE = 0.5
LEAST_BARE = 5
NEAR_CLIPPING = 240.0
MOST_BRIGHT = 0.2
SMOOTH_GROUP = 3
# The printed lines along a group of bare cells show, however faintly, when they are darker than
# the paper either side by more than this many standard errors (the points along a line, blurred
# together, are not independent: a threshold, not a probability). On 400 hard tuning renders the
# 30 such groups lying in part under a cup or a hand showed theirs at -6.7 to 5.1; groups under
# nothing, in a shadow or a blurred photo, at 7.3-10.4 (9037, 8569, 8897).
LINES_SHOW = 6.0
# In a shadow far darker than a white cup's side (DEEP_SHADOW or more, in the median), the JPEG
# keeps less of the lines against the noise: more than this many standard errors show them. On
# 3,400 hard tuning renders, of the 235 bare groups so asked, those lying mostly under a thing
# were 0.33 darker at most but two, shadows a thing's edge reached (0.58 and 0.63, their lines
# at 7.1 and 5.1: read bare, rightly); on 1,000 more, two bare cells in a cup's shadow 0.65
# darker showed theirs at 3.1.
SHADED_LINES_SHOW = 3.0
# Two bare cells alone make such a group when both show less than this share: a white cup's side
# at the island's edge hides two cells' outlines about altogether (0.10-0.31 on 2,400 hard
# renders); pairs in plain view showed the clearer of theirs 0.42 as clearly and more, but for
# one beside a hand (0.21).
HIDDEN_PAIR = 0.35
# A cell of the rim that borders the group at one edge only lies beside the cup when its outline
# shows at least this share as clearly as the pencils' cells show theirs (of which at least
# LEAST_NAMED): the cup hides the outline it lies over.
BESIDE_OUTLINE = 0.35
LEAST_NAMED = 5
# Hatching that blur joins to a hand beside it ends at its cell's outline, which shows all
# around; a cup over part of a cell hides the edges it lies over (half their points), however
# clearly the rest shows. On 2,400 hard renders, cells taken for hatching beside a thing whose
# outline showed less than a tenth as clearly, where it lay, all lay in part under it; cells in
# plain view showed every such edge 0.16 as clearly and more.
EDGE_UNDER = 0.5
HIDDEN_EDGE = 0.1
# An edge under a dark thing (half as bright as the paper around, or less) shows only where its
# line's depth stands out from the line's own scatter by EDGE_T standard errors: in a blue cup's
# dark side, where noise is large in log units, the mean depth along a line it hides may come
# out as far from zero as an outline's.
EDGE_T = 2.5
DARK_LINE = float(np.log(2.0))
# What is found over a cell may only graze it: its edge, blurred or found a pixel or two wide,
# spills across the printed line beside it. A graze reaches a sliver of the cell, along one
# edge (and the ends of the two beside it) or two at a corner: no more of the outline than two
# edges' length (more, and it wraps around the cell); the lines it reaches show about as
# clearly as the rest. A cup over much of a cell that was found over only a sliver of it
# mixes with its pencil: the cell reads less surely (a yellow cup over two thirds of a green
# cell read brown, 0.64 sure), or shows no outline anywhere (a white cup over a bare cell, read
# brown). On 2,400 hard tuning renders, releasing the cells so grazed made four boards exact
# (each a cup's rim found reaching a cell beside it) and read no cell wrong; measuring a graze
# by the length of outline it reaches, not by the edges it touches, one more. Of the cells that
# passed every other test on 3,400 hard tuning renders, the 110 read 0.85 to 0.9 sure were all
# read right (one of them in plain view); the surest read wrong was 0.72 sure.
GRAZED_SHARE = 0.15
GRAZED_EDGES = 2.0
GRAZED_EDGE = 0.5
GRAZED_SURE = 0.85


def covering(
    image: Floats,
    clipped: Mask,
    white: Floats,
    bounded: Mask,
    seen: Mask,
    maps: SheetMaps,
    smooth: Mask,
) -> Mask:
    """Where something lying over the sheet reaches its bare margin (a hand over a corner, a cup
    at the edge).

    The margin shows nothing but paper, so a hue there that is not the paper's is something
    over the sheet, when it is smooth as a hand or a cup is (SMOOTH_SEED of it ``smooth``, as
    ``smooth_surface`` finds: a pencil's strokes blurred on to the margin, or the tinted edge of
    a shadow, are rough); the connected region of that colour (hue and brightness), whatever
    cells it crosses, is the thing itself: a hand or a cup is one colour, shaded a little. It is
    traced where it is at least OPENED_MM wide: strokes of the thing's colour beside it, with
    paper between them, would join it stroke by stroke. What that colour leaves of the part of
    the margin, where it is NEXT_MM wide and NEXT_LEAST large, is another thing touching it (or
    the thing shaded darker), traced by its own colour in turn: up to COLOURS_TRACED colours.
    Hue is read only in channels measured outright, and wherever it is measured; against a
    white only ``bounded`` in a channel (per channel: clipped on all the lit paper), BOUND_SLACK
    less closely in it.
    """
    blue, green, red = log_planes(image / white * 255.0)
    hues = (blue - green, red - green)
    measured = (~clipped[:, :, 0] & ~clipped[:, :, 1], ~clipped[:, :, 2] & ~clipped[:, :, 1])
    # A shadow on the margin is measured in a channel its lit paper clips: the paper's own
    # colour, but as far from a bounded white as the bound is off.
    limits = [FOREIGN_HUE + (BOUND_SLACK if bounded[c] or bounded[1] else 0.0) for c in (0, 2)]
    odd = np.zeros(image.shape[:2], bool)
    for hue, ok, limit in zip(hues, measured, limits, strict=True):
        odd |= ok & (np.abs(hue) > limit)
    seeds = (maps.margin & seen & odd).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(seeds, connectivity=8)
    covered = np.zeros(seeds.shape, bool)
    opening, next_opening = disc(OPENED_MM), disc(NEXT_MM)
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] < LEAST_BLOB * SHEET_PPM * SHEET_PPM:
            continue
        part = labels == label
        # Things touching on the margin (a hand against a cup) are one region there, of two
        # colours (or a hand of two shades): what the first colour traced leaves of it, where
        # it is wider and larger than a blurred edge, is the second.
        for _ in range(COLOURS_TRACED):
            if smooth[part].mean() < SMOOTH_SEED:
                break  # hatching blurred on to the margin, or a shadow's edge: not a thing
            alike = _coloured_like(part, odd, green, hues, measured)
            own = alike & part
            alike = cv2.morphologyEx(alike.astype(np.uint8), cv2.MORPH_OPEN, opening) > 0
            _, regions = cv2.connectedComponents((alike | part).astype(np.uint8), connectivity=8)
            covered |= np.isin(regions, np.unique(regions[part]))
            rest = (part & ~own).astype(np.uint8)
            part = cv2.morphologyEx(rest, cv2.MORPH_OPEN, next_opening) > 0
            if part.sum() < NEXT_LEAST * SHEET_PPM * SHEET_PPM:
                break
    return cv2.dilate(covered.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0


def _coloured_like(
    part: Mask,
    odd: Mask,
    green: Floats,
    hues: tuple[Floats, Floats],
    measured: tuple[Mask, Mask],
) -> Mask:
    """Where ``odd`` is of the colour of ``part``: within SAME_COLOUR of its median brightness
    and, in each hue measured on LEAST_BLOB of it, of its median hue."""
    alike = odd & (np.abs(green - np.median(green[part])) < SAME_COLOUR[1])
    for hue, ok in zip(hues, measured, strict=True):
        known = part & ok
        if known.sum() >= LEAST_BLOB * SHEET_PPM * SHEET_PPM:
            # Wherever this hue is measured, it is the thing's (a yellow cup clipped in red
            # where it is lit is still not the green hatching beside it).
            alike &= ~ok | (np.abs(hue - np.median(hue[known])) < SAME_COLOUR[0])
    return np.asarray(alike, bool)


def edge_contrast(image: Floats, maps: SheetMaps) -> Floats:
    """Per cell and per each of its six edges, how much the printed line shows (log units): how
    far it differs from either side of it (a darker line or a bare seam alike)."""
    return np.asarray(np.abs(line_depths(image, maps).mean(axis=2)), np.float32)


def line_depths(image: Floats, maps: SheetMaps) -> Floats:
    """At each point along each cell's printed outline (cells x 6 edges x points), how much
    darker the line is than the mean of either side of it (log units; negative: brighter)."""
    on, left, right = _line_samples(_grey(image), maps)
    return np.asarray(0.5 * (left + right) - on, np.float32)


def _grey(image: Floats) -> Floats:
    """Each pixel's mean over its three channels."""
    return np.asarray(cv2.transform(image, np.full((1, 3), 1.0 / 3.0, np.float32)), np.float32)


def _line_samples(shade: Floats, maps: SheetMaps) -> Floats:
    """How bright ``shade`` (``_grey``) is, in log units, at each point along each cell's
    printed outline, and beside it either side (3 x cells x 6 edges x points)."""
    # All three sets of points sampled in one pass.
    flat = np.stack([points.reshape(-1, 2) for points in maps.outline])
    values = cv2.remap(
        shade,
        np.ascontiguousarray(flat[..., 0]),
        np.ascontiguousarray(flat[..., 1]),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.log(np.maximum(values.reshape(3, *maps.outline[0].shape[:-1]), 1.0))


def unsteady_edges(image: Floats, maps: SheetMaps) -> Mask:
    """Per cell and per each of its six edges, whether its printed line lies in the dark (at
    least DARK_LINE darker than the brightest paper within SHADOW_LIT_MM, log units) and its
    mean depth does not stand out from the scatter of its depths along it by EDGE_T standard
    errors: noise, large there in log units, may have made it."""
    grey = _grey(image)
    on, left, right = _line_samples(grey, maps)
    depths = 0.5 * (left + right) - on
    spread = depths.std(axis=2) / np.sqrt(depths.shape[2])
    steady = np.abs(depths.mean(axis=2)) >= EDGE_T * spread
    # A cup's side is as wide as the cup: paper lit in full lies a cup's width away.
    shade = np.log(np.maximum(grey, 1.0))
    lit = _at(_brightest_around(shade, SHADOW_LIT_MM), maps.outline[0])
    dark = (lit - on).mean(axis=2) >= DARK_LINE
    return np.asarray(dark & ~steady, bool)


def outline_contrast(edges: Floats) -> Floats:
    """Per cell, how much its printed outline shows: the median over its six ``edges``."""
    return np.asarray(column_median(edges.T), np.float32)


def smooth_blobs(
    image: Floats,
    clipped: Mask,
    maps: SheetMaps,
    reads: list[Read],
    contrast: Floats,
    outlined: Mask,
    found: Mask,
    over: Mask,
    smooth: Mask,
) -> Mask:
    """Cells under a cup on the island: SMOOTH_GROUP or more adjacent cells read alike (one
    pencil, or bare paper), none showing its printed outline, or two bare cells hiding it about
    altogether (HIDDEN_PAIR), and, read as a pencil, the cells read alike around them (the
    cup's rim). Bare cells around a white cup are left to ``smooth_objects``, which finds its
    side by the grid it hides: bare paper beside the cup looks as a cell under its rim would.
    Where something found over the sheet (``found``) lies over some cells of a bare group, the
    others are its shadow when DEEP_SHADOW darker than the paper lit in full within
    SHADOW_LIT_MM, far darker than a white cup's side; beside nothing found, something grey may
    lie over cells as dark.
    A group read as a pencil is blurred hatching when nothing found over the sheet (``over``)
    lies within ACROSS_RIM_MM of it: a cup over it is found there, or beside it.

    A pencil's colour hides the outline only where it lies over it, so a cell read as a pencil
    whose outline is fainter than NO_OUTLINE is suspect. Bare paper shows its outline as the
    blur allows: a bare cell is suspect when its outline is much fainter than the sheet's other
    bare cells show theirs (a white cup is as plain as paper), unless the sensor clips it there
    (the line is lost in the paper's white); a group of them is not under a cup when the lines
    along them still show, however faintly (``_lines_show``: in a shadow, or blurred). A cell
    of the rim whose outline shows (``outlined``) is beside the cup, not under it; so is one
    that borders the group at one edge only and shows its outline at least BESIDE_OUTLINE as
    clearly as the pencils' cells show theirs (under the cup's edge, much of its outline would
    be hidden). Where something found over the sheet (``found``) lies over part of the group,
    a cell of it clear of that thing which shows its outline at least BESIDE_OUTLINE as clearly
    is hatching of the cup's colour beside it too; so is a cell of the group or its rim that
    nothing found lies over and that is rough with strokes (SMOOTH_CELL). ``contrast``: how much
    each cell's outline shows; ``smooth``: where the photo is as smooth as paper
    (``smooth_surface``).
    """
    count = len(reads)
    ys, xs = maps.spots
    size = np.bincount(maps.owner, minlength=count)
    near_clipping = (image[ys, xs] >= NEAR_CLIPPING).any(axis=1) | clipped[ys, xs].any(axis=1)
    bright = np.bincount(maps.owner, near_clipping, count) / size
    bare = np.array([read.problem is None and read.value is None for read in reads])
    typical = float(np.median(contrast[bare])) if bare.sum() >= LEAST_BARE else 0.0
    named = np.array([read.value is not None for read in reads])
    plain = named & (contrast < NO_OUTLINE)
    dim = bare & (bright < MOST_BRIGHT)
    plain |= dim & (contrast < FAINT_OUTLINE * typical)
    hidden = dim & (contrast < HIDDEN_PAIR * typical)
    clear = float(np.median(contrast[named])) if named.sum() >= LEAST_NAMED else np.inf
    beside = contrast >= BESIDE_OUTLINE * clear
    inside = np.zeros(len(reads), bool)
    rough: Mask | None = None  # worked out for the rare group of pencil cells near a thing
    for group in _alike_groups(plain, reads, maps):
        pair = len(group) == 2 and bool(hidden[group].all())
        colour = reads[group[0]].value
        # The lines are sampled only for a bare group about to be taken for a white cup: rarely.
        if (
            (len(group) >= SMOOTH_GROUP or pair)
            and not _shaped_like_cells(group, reads, outlined, found, maps)
            and not (
                colour is None and _lines_show(line_depths(image, maps)[group], image, group, maps)
            )
        ):
            if colour is None:
                # Bare paper beside a white cup looks as a cell under its rim would: the cup's
                # side is found by the grid it hides instead (``smooth_objects``).
                # On 4,400 hard tuning renders, of the 292 bare groups so taken, four had cells
                # nothing found lay over beside cells something found lay over, all under a
                # white cup's side: those cells measured 0.08 to 0.11 darker. Three bare cells
                # in a cup's shadow beside it, on 1,000 more, measured 0.60.
                unfound = [k for k in group if not found[k]]
                inside[group] = True
                if 0 < len(unfound) < len(group) and _shadowed(image, unfound, maps, SHADOW_LIT_MM):
                    inside[unfound] = False
                continue
            members = np.array(group)
            if not _found_near(over, group, maps):
                # On 3,400 hard tuning renders, the 716 such groups taken for a cup's all lay
                # under something found, and in part under a cup or a hand; the two with nothing
                # found within ACROSS_RIM_MM (19 and 61 mm off) were hatching in plain view.
                continue
            if found[members].any():
                # Those under something found are covered whatever else; of the rest, one
                # whose outline shows as a cell's beside a cup does is hatching beside it.
                members = members[found[members] | ~beside[members]]
            if rough is None:
                rough = _rough_untouched(smooth, maps, over)
            inside[members[~rough[members]]] = True
            rim = [
                n
                for n in _bordering(group, maps)
                if reads[n].value == colour
                and not outlined[n]
                and not (beside[n] and _touching(n, group, maps) == 1)
                and not rough[n]
            ]
            inside[rim] = True
    return inside


def _rough_untouched(smooth: Mask, maps: SheetMaps, over: Mask) -> Mask:
    """Per cell, whether nothing found over the sheet (``over``) lies over any of it and less
    than SMOOTH_CELL of it is ``smooth``: hatching's strokes, not a cup."""
    smoothed = pixels_per_cell(smooth, maps)
    untouched = pixels_per_cell(over, maps) == 0
    return np.asarray(untouched & (smoothed < SMOOTH_CELL * maps.areas), bool)


def _lines_show(depths: Floats, image: Floats, group: list[int], maps: SheetMaps) -> bool:
    """Whether printed lines show along the outlines of a group of bare cells (``depths``: the
    line's depth at each point along them, as ``line_depths`` finds), however faintly: darker
    than the paper either side by more than LINES_SHOW standard errors, or SHADED_LINES_SHOW
    where the group (cells of ``maps``, seen in ``image``) is as dark as a shadow, far darker
    than a white cup's side. How dark is worked out only for the rare group that needs it."""
    depth, spread = float(depths.mean()), float(depths.std()) / float(np.sqrt(depths.size))
    if depth > LINES_SHOW * spread:
        return True
    if depth <= SHADED_LINES_SHOW * spread:
        return False
    return _shadowed(image, group, maps, LIT_MM)


def _shadowed(image: Floats, cells: list[int], maps: SheetMaps, across_mm: float) -> bool:
    """Whether ``cells`` (of ``maps``, seen in ``image``) are DEEP_SHADOW or more darker, in
    the median, than the brightest paper within a square ``across_mm`` wide: far darker than a
    white cup's side."""
    shade = np.asarray(np.mean(log_planes(image), axis=0), np.float32)
    dark = _brightest_around(shade, across_mm) - shade
    return bool(column_median(dark[np.isin(maps.whole, cells)]) >= DEEP_SHADOW)


def _touching(cell: int, group: list[int], maps: SheetMaps) -> int:
    """How many cells of ``group`` border ``cell``."""
    return sum(n in group for n in maps.neighbours[cell])


def _bordering(group: list[int], maps: SheetMaps) -> set[int]:
    """The cells around ``group``: those bordering one of its cells, not of it themselves."""
    return {n for k in group for n in maps.neighbours[k]} - set(group)


def _shaped_like_cells(
    group: list[int], reads: list[Read], outlined: Mask, found: Mask, maps: SheetMaps
) -> bool:
    """Whether a group of cells read as one pencil ends where its cells do: every cell around
    it is read, as paper, as another pencil or as its own with its outline showing. Blur
    smooths hatching as plain as a cup, but a cup is round: it lies in part over the cells
    around it, which then read as its colour, outline hidden, or not at all.

    A cell around it under something found (``found``) tells nothing, when nothing found lies
    over the group itself: that thing is another, found apart, and a cup over the group would
    have been found over it as well as beyond it."""
    colour = reads[group[0]].value
    apart = not found[group].any()
    return colour is not None and all(
        (apart and found[n])
        or (reads[n].problem is None and (reads[n].value != colour or outlined[n]))
        for n in _bordering(group, maps)
    )


def _hatching(
    cells: NDArray[np.intp],
    shares: Floats,
    on_margin: bool,
    others: Mask,
    reads: list[Read],
    maps: SheetMaps,
) -> bool:
    """Whether a thing found over the sheet is hatching that blur smoothed: it lies on the
    island alone (not ``on_margin``), every cell it reaches (``cells``, ``shares`` of each)
    beyond its edge (GRAZED_SHARE) is read cleanly as a pencil (blur smooths neighbouring cells
    of two pencils together) or lies under something else (``others``: read or refused under
    that, it tells nothing of this one), not every one of them so, and every cell around those,
    or reached at its edge only (blur spills the smoothed hatching over the outline), is read
    cleanly or lies under something else. A cup is round: it lies in part over cells of other
    colours, or over bare paper, which then read as a mix or not at all."""
    core = cells[shares >= GRAZED_SHARE]
    if len(core) == 0 or on_margin:
        return False
    if others[core].all() or (~_pencilled(reads)[core] & ~others[core]).any():
        return False
    around = ({n for k in cells for n in maps.neighbours[k]} | set(cells.tolist())) - set(
        core.tolist()
    )
    return all(others[n] or reads[n].problem is None for n in around)


def _pencilled(reads: list[Read]) -> Mask:
    """Which cells were read cleanly as a pencil."""
    return np.array([read.problem is None and read.value is not None for read in reads])


def _alike_groups(members: Mask, reads: list[Read], maps: SheetMaps) -> list[list[int]]:
    """The groups of adjacent ``members`` read alike (as one pencil, or as paper)."""
    done = np.zeros(len(reads), bool)
    groups = []
    for start in np.flatnonzero(members):
        if done[start]:
            continue
        group, todo = [], [int(start)]
        done[start] = True
        while todo:
            k = todo.pop()
            group.append(k)
            for n in maps.neighbours[k]:
                if members[n] and not done[n] and reads[n].value == reads[k].value:
                    done[n] = True
                    todo.append(n)
        groups.append(group)
    return groups


def _sampled(mask: Mask, points: Floats) -> Mask:
    """``mask`` at each of ``points`` (x, y in pixels; the nearest pixel, kept inside)."""
    return np.asarray(_at(mask, points), bool)


def _at(values: NDArray[Any], points: Floats) -> NDArray[Any]:
    """``values`` at each of ``points`` (x, y in pixels; the nearest pixel, kept inside)."""
    h, w = values.shape[:2]
    xs = np.clip(np.round(points[..., 0]).astype(np.intp), 0, w - 1)
    ys = np.clip(np.round(points[..., 1]).astype(np.intp), 0, h - 1)
    return np.asarray(values[ys, xs])


def _edge_hidden(
    over: Mask,
    edges: Floats,
    unsteady: Mask,
    contrast: Floats,
    reads: list[Read],
    maps: SheetMaps,
) -> Mask:
    """Per cell, whether an edge that ``over`` lies over (EDGE_UNDER of its points) shows less
    than HIDDEN_EDGE as clearly as the pencils' cells show their outlines, or ``unsteady``
    (``edges``: how much each edge shows, ``contrast`` each outline; of such cells at least
    LEAST_NAMED)."""
    named = _pencilled(reads)
    if named.sum() < LEAST_NAMED:
        return np.zeros(len(reads), bool)
    clear = float(np.median(contrast[named]))
    under = _sampled(over, maps.outline[0]).mean(axis=2) >= EDGE_UNDER
    return np.asarray((under & ((edges < HIDDEN_EDGE * clear) | unsteady)).any(axis=1), bool)


def _grazed(
    over: Mask,
    share: NDArray[np.float64],
    edges: Floats,
    contrast: Floats,
    reads: list[Read],
    maps: SheetMaps,
) -> Mask:
    """Per cell, whether what was found over it only grazes it: it reaches less than
    GRAZED_SHARE of the cell (``share``) and GRAZED_EDGES edges' length of its outline at most
    (the points it lies on along each edge); the cell is read cleanly, at least GRAZED_SURE
    sure; the edges not reached show at least FAINT_OUTLINE as clearly as the cells read alike
    (bare, or as a pencil: at least LEAST_BARE and LEAST_NAMED of them) show their outlines, and
    those reached at least GRAZED_EDGE as clearly as those. The edge of a hand or a cup, blurred
    or found a pixel or two wide, spills across the printed line beside it; lying over the line,
    the hand or the cup would hide it."""
    grazed = np.zeros(len(reads), bool)
    clean = np.array([read.problem is None for read in reads])
    named = _pencilled(reads)
    bare = clean & ~named
    if bare.sum() < LEAST_BARE or named.sum() < LEAST_NAMED:
        return grazed
    alike = (float(np.median(contrast[named])), float(np.median(contrast[bare])))
    sampled = _sampled(over, maps.outline[0])
    reached = np.asarray(sampled.any(axis=2), bool)
    length = sampled.mean(axis=2).sum(axis=1)  # in edges
    for k in np.flatnonzero((share >= COVERED_SHARE) & (share < GRAZED_SHARE) & clean):
        if reads[k].confidence < GRAZED_SURE or length[k] > GRAZED_EDGES:
            continue
        others = float(np.median(edges[k][~reached[k]]))
        grazed[k] = others >= FAINT_OUTLINE * alike[int(bare[k])] and bool(
            (edges[k][reached[k]] >= GRAZED_EDGE * others).all()
        )
    return grazed


def _hatching_beside(
    share: NDArray[np.float64], held: Mask, outlined: Mask, reads: list[Read], maps: SheetMaps
) -> Mask:
    """The cells found under something only by its smooth surface (``share``: how much of each
    it covers; ``held``: the cells what reaches the margin covers) that are hatching beside it:
    groups of cells read cleanly as one pencil, at least BESIDE_SURE sure, every one showing its
    outline (``outlined``), at the thing's edge: every cell around them held, in plain view
    (read cleanly, under nothing found), at the thing's edge itself (showing its outline, read
    cleanly as another pencil) or under it and refused (a cup mixes with the pencils of the
    cells it lies over), and at least PLAIN_VIEW of them in plain view. Blurred hatching as
    smooth as a hand or a cup beside it joins its surface; but a hand over a cell hides its
    outline (it reads cleanly as a pencil too, if less surely), and a cell it rings is under it."""
    loose = (share >= COVERED_SHARE) & ~held
    named = _pencilled(reads)
    sure = np.array([read.confidence >= BESIDE_SURE for read in reads])
    hatched = np.zeros(len(reads), bool)
    for group in _alike_groups(loose & named & sure & outlined, reads, maps):
        around = list(_bordering(group, maps))
        clear = [reads[n].problem is None and not loose[n] and not held[n] for n in around]
        colour = reads[group[0]].value
        # A cell the thing lies over in part, at its edge: its outline shows, and it is read
        # cleanly as its own pencil, not as the group's.
        edge = [
            loose[n]
            and outlined[n]
            and reads[n].problem is None
            and reads[n].value not in (None, colour)
            for n in around
        ]
        # A cell the thing lies over, refused: the hatching borders the thing itself. On 4,400
        # hard tuning renders, 236 cells fewer were refused, none read wrong, and two boards
        # more were read exactly.
        under = [loose[n] and reads[n].problem is not None for n in around]
        if all(held[around] | clear | edge | under) and sum(clear) >= PLAIN_VIEW * len(around):
            hatched[group] = True
    return hatched


def _roughness(image: Floats) -> Floats:
    """Per pixel, the largest standard deviation of a channel over a SMOOTH_MM window (linear
    units: the sensor's noise is, and dark surfaces are no rougher than bright ones)."""
    size = (round(SMOOTH_MM * SHEET_PPM),) * 2
    mean = cv2.blur(image, size)
    spread = cv2.blur(image * image, size) - mean * mean
    largest = np.maximum(np.maximum(spread[:, :, 0], spread[:, :, 1]), spread[:, :, 2])
    return np.asarray(np.sqrt(np.maximum(largest, 0.0)), np.float32)


def smooth_surface(image: Floats, clipped: Mask, seen: Mask, maps: SheetMaps) -> Mask:
    """Where the photo is as smooth as bare paper: at most ROUGHER times as rough as the
    margin's measured paper (its median: a thing lying there is smoother still)."""
    rough = _roughness(image)
    measured = ~(clipped[:, :, 0] | clipped[:, :, 1] | clipped[:, :, 2])
    quiet = maps.margin & seen & measured
    around = rough[quiet] if quiet.sum() > LEAST_LINE_PX else rough
    noise = max(float(np.median(around)), QUIETEST)
    return np.asarray((rough < ROUGHER * noise) & seen, bool)


def _off_grid(part: Mask, maps: SheetMaps) -> bool:
    """Whether too little of the printed grid lies in ``part`` to tell whether it shows."""
    on, off = part & maps.on_line, part & maps.off_line
    return int(on.sum()) < LEAST_LINE_PX or int(off.sum()) < LEAST_LINE_PX


def _outlines_show(lines: Floats, part: Mask, maps: SheetMaps) -> bool:
    """Whether the printed outlines stand out inside ``part``: the line response on them
    against its spread clear of them, significantly (as a t statistic) and by enough."""
    if _off_grid(part, maps):
        return True  # too little of the grid to tell: not taken for a cup
    on, off = lines[part & maps.on_line], lines[part & maps.off_line]
    effect = _line_effect(on, off)
    return bool(effect * np.sqrt(len(on)) >= OUTLINES_SHOW and effect >= LINE_EFFECT)


def _line_effect(on: Floats, off: Floats) -> float:
    """How far the line response ``on`` the outlines stands above that ``off`` them, in units
    of the spread off them."""
    return (float(on.mean()) - float(off.mean())) / (float(off.std()) + 1e-6)


def _beneath_hatching(lines: Floats, part: Mask, maps: SheetMaps) -> Mask | None:
    """What of a tinted part whose outlines show lies over the sheet, when hatching of its
    colour joins it: the part less the cells whose outlines stand out in it, when the rest is as
    large as a thing and its outlines do not show there at all, nor over the cells lying mostly
    within it; else None."""
    on, off = part & maps.on_line, part & maps.off_line
    if int(off.sum()) < LEAST_LINE_PX:
        return None
    centre, spread = float(lines[off].mean()), float(lines[off].std()) + 1e-6
    count = len(maps.names)
    owner = maps.whole[on]
    inside = owner >= 0
    sums = np.bincount(owner[inside], lines[on][inside], count)
    pixels = np.bincount(owner[inside], minlength=count)
    effect = (sums / np.maximum(pixels, 1) - centre) / spread
    peeled = (pixels >= PEELED_PX) & (effect >= PEELED_EFFECT)
    if not peeled.any():
        return None
    rest = part & ~np.isin(maps.whole, np.flatnonzero(peeled))
    line, clear = lines[rest & maps.on_line], lines[rest & maps.off_line]
    if (
        rest.sum() < LEAST_OBJECT * SHEET_PPM * SHEET_PPM
        or min(len(line), len(clear)) < LEAST_LINE_PX
    ):
        return None
    mostly = ~peeled & (pixels_per_cell(rest, maps) >= MOSTLY * maps.areas)
    if pixels[mostly].sum() >= LEAST_LINE_PX:
        shown = (float(sums[mostly].sum()) / float(pixels[mostly].sum()) - centre) / spread
        if shown >= WHOLE_HIDDEN:
            return None
    return rest if abs(_line_effect(line, clear)) < HIDDEN_EFFECT else None


def _shadow_shows_grid(
    lines: Floats, grid: Floats, part: Mask, maps: SheetMaps, lit_slope: float
) -> bool:
    """Whether the printed grid shows through ``part`` (of the paper's hue) as through a
    shadow: clearly, and at least SHADOW_GRID as strongly as on lit bare paper (``lit_slope``),
    or at least HALF_GRID as strongly and less clearly (over few outlines). A white cup is as
    plain as paper, but hides the grid altogether."""
    response = _grid_response(lines, grid, part, maps)
    if response is None:
        return True  # too little of the grid to tell: not taken for a cup
    slope, t = response
    return (slope >= SHADOW_GRID * lit_slope and t >= SHADOW_SHOWS) or (
        slope >= HALF_GRID * lit_slope and t >= FAINT_SHOWS
    )


def _grid_response(
    lines: Floats, grid: Floats, region: Mask, maps: SheetMaps
) -> tuple[float, float] | None:
    """How strongly the printed grid shows in ``region``: the line response regressed on the
    grid's own pattern (``grid``), and that slope against its noise (the response's spread clear
    of the outlines) as a t statistic; None when too little of the grid lies there."""
    fit = _grid_fit(lines, grid, region, maps)
    return None if fit is None else (fit[0], fit[0] * fit[1])


def _grid_fit(
    lines: Floats, grid: Floats, region: Mask, maps: SheetMaps
) -> tuple[float, float] | None:
    """The slope ``_grid_response`` gives, and the t statistic a slope of 1 would give."""
    if _off_grid(region, maps):
        return None
    off = region & maps.off_line
    pattern = grid[region]
    energy = float(pattern @ pattern)
    slope = float(lines[region] @ pattern) / energy
    return slope, float(np.sqrt(energy)) / (float(lines[off].std()) + 1e-6)


def _clearly_hides(
    lines: Floats, grid: Floats, part: Mask, maps: SheetMaps, lit_slope: float
) -> bool:
    """Whether the printed grid, which would show through ``part`` at t GRID_CLEAR at least
    were it as clear there as on lit bare paper (``lit_slope``), shows less than SHADOW_GRID as
    clearly."""
    fit = _grid_fit(lines, grid, part, maps)
    return fit is not None and fit[0] < SHADOW_GRID * lit_slope and lit_slope * fit[1] >= GRID_CLEAR


def _brightest_around(shade: Floats, across_mm: float = LIT_MM) -> Floats:
    """How bright the brightest paper within a square ``across_mm`` wide is lit (log units),
    smoothly: worked out at COARSE_PPM, as fine detail does not matter to it."""
    reach = round(across_mm * COARSE_PPM) | 1
    lit = cv2.dilate(
        cv2.GaussianBlur(coarse(shade), (0, 0), 3.0 * COARSE_PPM), np.ones((reach, reach), np.uint8)
    )
    lit = cv2.GaussianBlur(lit, (0, 0), 15.0 * COARSE_PPM)
    h, w = shade.shape
    return np.asarray(cv2.resize(lit, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def smooth_objects(
    image: Floats,
    clipped: Mask,
    seen: Mask,
    white: Floats,
    maps: SheetMaps,
    smooth: Mask,
    hands: Mask,
) -> Mask:
    """Where a smooth surface lies over the sheet: regions as smooth as bare paper but of
    another hue than the paper's (``white``: its colour, per channel) or darker than the
    brightest paper around (in the channels the sensor measures on the paper; with what is
    smooth and FAINTER darker joined to it), or on the island of the paper's hue and measured (a
    white cup's side as bright as the paper), with no outline showing through, larger than
    LEAST_OBJECT alone or with such regions of the same kind (coloured, or of the paper's hue)
    close by; and the other plain regions across the rim from one (or from one on the margin,
    beyond the printed grid: a cup's coffee there, its side over the cells) that hide the grid
    and lie across several cells or, tinted, largely beyond the island, or, of the paper's hue
    and shaded as a white cup's side, across two on it (a sliver of a cup's side). ``smooth``: where
    the photo is as smooth as paper (``smooth_surface``); ``hands``: what was found reaching in
    from the margin (``covering``: a hand over a corner, or a cup there; beside one, a part of
    the paper's hue as dark as a shadow is its shadow, where the grid cannot tell)."""
    measured = ~(clipped[:, :, 0] | clipped[:, :, 1] | clipped[:, :, 2])
    blue, green, red = log_planes(image)
    hues = (blue - green, red - green)
    hue = paper_hue_distance(hues, white)
    shade = (blue + green + red) / 3.0
    level = _measured_level((blue, green, red), clipped[maps.margin & seen], shade)
    lit = _brightest_around(level)
    tinted = (hue > OTHER_HUE) & measured
    odd = smooth & (tinted | (level < lit - DARKER))
    # Tinted and untinted pixels make parts of their own: a hand and the shadow it casts touch,
    # and judged as one part, the grid showing through the shadow is lost in the hand. Tinted
    # pixels of two hues make parts of their own too: a yellow cup and the red hatching that
    # blur leaves as smooth beside it touch, and judged as one part, the cells' outlines
    # showing through the hatching are lost in the cup.
    labels = np.zeros(odd.shape, np.int32)
    # Darker pixels are fainter too: the fainter regions that hold them hold them whole.
    darker = _reaching(smooth & ~tinted & (level < lit - FAINTER), odd & ~tinted)
    count = _label_parts(labels, 1, darker)
    count = _label_parts(labels, count, odd & tinted & ~_hue_edges(hues, shade))
    lit_paper = smooth & (labels == 0) & (hue < OTHER_HUE) & (level > lit - LIT_PAPER)
    # The rest that is smooth on the island, of the paper's hue and measured (the sensor's limit
    # is as smooth, and hides the grid too), makes parts of its own: bare paper, through which
    # the grid shows as on lit paper, or a white cup's side as bright as the paper, hiding it.
    count = _label_parts(labels, count, smooth & measured & ~tinted & ~darker & (maps.whole >= 0))
    sizes = np.bincount(labels.ravel(), minlength=count) / (SHEET_PPM * SHEET_PPM)
    if not (sizes[1:] >= LEAST_PART).any():
        return np.zeros(labels.shape, bool)  # no part large enough to be one, nor one to lie beside
    lines = np.asarray(
        cv2.GaussianBlur(shade, (0, 0), LINE_BLUR_MM * SHEET_PPM) - shade, np.float32
    )
    # The printed grid as the line response sees it, and how clearly it shows on lit bare paper.
    grid = maps.line_grid
    lit_response = _grid_response(lines, grid, lit_paper & (maps.whole >= 0), maps)

    dark = lit - level
    shaded = _brightest_around(level, SHADOW_LIT_MM) - level

    def shows(part: Mask, coloured: bool) -> bool:
        if (
            not coloured
            and _near(part, hands, CAST_MM)
            and _dark_as_shadow(part, shaded, hands)
            and not (
                lit_response is not None
                and _clearly_hides(lines, grid, part, maps, lit_response[0])
            )
        ):
            return True  # a hand's shadow, darker than a thing of the paper's hue
        if coloured or lit_response is None or lit_response[1] < OUTLINES_SHOW:
            return _outlines_show(lines, part, maps)
        return _shadow_shows_grid(lines, grid, part, maps, lit_response[0])

    # Plain parts, coloured or of the paper's hue (a shadow is, and is apart from the coloured
    # thing that casts it), and those of them that may be part of a cup across its rim.
    plain = np.zeros((2, *labels.shape), bool)
    beyond = np.zeros(labels.shape, bool)
    sides = np.zeros(labels.shape, bool)
    for label in range(1, count):
        if sizes[label] < LEAST_PART:
            continue
        part = labels == label
        coloured = bool(column_median(hue[part]) > OTHER_HUE)
        if _off_grid(part, maps):
            beyond |= part
        if shows(part, coloured):
            if not coloured:
                continue
            # Hatching of the thing's colour beside it, blurred as smooth, may join it.
            beneath = _beneath_hatching(lines, part, maps)
            if beneath is None:
                continue
            part = beneath
        plain[int(coloured)] |= part
        if _hides_grid(lines, grid, part, maps, lit_response):
            sides |= part
    # The edges between one thing's parts are rough over about a roughness window.
    reach = np.ones((round(SMOOTH_MM * SHEET_PPM) + 2,) * 2, np.uint8)
    over = np.zeros(labels.shape, bool)
    for parts in plain:
        if not parts.any():
            continue
        things, which = cv2.connectedComponents(cv2.dilate(parts.astype(np.uint8), reach))
        area = np.bincount(which[parts], minlength=things)
        over |= parts & (area[which] >= LEAST_OBJECT * SHEET_PPM * SHEET_PPM)
    if not (over | beyond).any():
        return over  # nothing over the sheet, so no rim to look across
    # Other parts across the rim from one (or from one on the margin): a sliver of a cup's side,
    # if it lies across cells, or beyond them.
    near = cv2.dilate((over | beyond).astype(np.uint8), disc(2.0 * ACROSS_RIM_MM)) > 0
    for label in np.unique(labels[near & ~over]):
        if label == 0 or sizes[label] < LEAST_SIDE:
            continue
        part = labels == label
        coloured = bool(column_median(hue[part]) > OTHER_HUE)
        if (
            (
                _across_cells(part, maps)
                or (coloured and _beyond_island(part, maps))
                or (not coloured and _shaded_side(part, dark, maps))
            )
            and not shows(part, coloured)
            and _hides_grid(lines, grid, part, maps, lit_response)
        ):
            sides |= part
    over |= _reaching(sides, near)
    return cv2.dilate(over.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0


def _dark_as_shadow(part: Mask, dark: Floats, hands: Mask) -> bool:
    """Whether ``part`` is as dark as a hand's shadow (``dark``: how much darker than lit paper
    each pixel is, log units): its median pixel DEEP_SHADOW to DARKEST_SHADOW darker, or it fades
    as a penumbra does (PENUMBRA), darkest towards the hand (``hands``) that casts it; a grey
    thing's shading follows the light, wherever the hand is."""
    darkness = dark[part]
    if DEEP_SHADOW <= column_median(darkness) <= DARKEST_SHADOW:
        return True
    lightest, darkest = np.percentile(darkness, (10, 90))
    if not (lightest <= PENUMBRA[0] and PENUMBRA[1] <= darkest <= DARKEST_SHADOW):
        return False
    away = cv2.distanceTransform((~hands).astype(np.uint8), cv2.DIST_L2, 3)[part]
    return bool(away[darkness >= darkest].mean() < away[darkness <= lightest].mean())


def _near(part: Mask, other: Mask, mm: float) -> bool:
    """Whether ``other`` lies within ``mm`` of ``part``. Worked out around the part alone, for
    the rare part it is asked of."""
    rows, columns = np.nonzero(part)
    pad = round(mm * SHEET_PPM) + 1
    top, left = max(int(rows.min()) - pad, 0), max(int(columns.min()) - pad, 0)
    bottom, right = int(rows.max()) + pad + 1, int(columns.max()) + pad + 1
    around = other[top:bottom, left:right]
    if not around.any():
        return False
    grown = cv2.dilate(around.astype(np.uint8), disc(2.0 * mm)) > 0
    return bool((grown & part[top:bottom, left:right]).any())


def _measured_level(planes: Sequence[Floats], on_paper: Mask, shade: Floats) -> Floats:
    """How bright each pixel is (mean log channel) in the channels the sensor clips on at most
    PAPER_CLIPPED of the paper (``on_paper``: the clipped flags of its pixels, N x 3); ``shade``,
    the mean of all three, where it clips every one so (or no paper shows)."""
    kept = [c for c in range(3) if len(on_paper) and on_paper[:, c].mean() <= PAPER_CLIPPED]
    if not kept or len(kept) == 3:
        return shade
    return np.asarray(sum(planes[c] for c in kept) / len(kept), np.float32)


def _label_parts(labels: NDArray[np.int32], count: int, kind: Mask) -> int:
    """Label the parts of ``kind`` (opened, 4-connected) in ``labels`` from ``count`` on, and
    return the next label free."""
    opened = cv2.morphologyEx(kind.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    parts, own = cv2.connectedComponents(opened, connectivity=4)
    labels[own > 0] = own[own > 0] + count - 1
    return count + parts - 1


def _hue_edges(hues: tuple[Floats, Floats], shade: Floats) -> Mask:
    """Where the hue (``hues``: log blue and red less log green) changes by HUE_EDGE (log
    units) per mm or more, on surfaces lit at least HUE_LIT (``shade``: mean log channel; a dark
    surface's hue is mostly noise: coffee's would cut it up)."""
    steepest = np.zeros(shade.shape, np.float32)
    for plane in hues:
        smoothed = cv2.GaussianBlur(plane, (0, 0), EDGE_SIGMA * SHEET_PPM)
        # A 3x3 Sobel kernel gives 8 times the slope: scaled back to it.
        dx = cv2.Sobel(smoothed, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
        dy = cv2.Sobel(smoothed, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
        steepest = np.maximum(steepest, cv2.magnitude(dx, dy))
    lit = cv2.GaussianBlur(shade, (0, 0), EDGE_SIGMA * SHEET_PPM) > float(np.log(HUE_LIT))
    return np.asarray((steepest > HUE_EDGE / SHEET_PPM) & lit, bool)


def _across_cells(part: Mask, maps: SheetMaps, least: int = SIDE_CELLS) -> bool:
    """Whether ``part`` lies across ``least`` cells or more, SIDE_SHARE of each at least."""
    inside = pixels_per_cell(part, maps)
    return int(((inside > 0) & (inside >= SIDE_SHARE * maps.areas)).sum()) >= least


def pixels_per_cell(mask: Mask, maps: SheetMaps) -> NDArray[np.intp]:
    """How many pixels of ``mask`` each cell's hexagon holds."""
    island = maps.whole >= 0
    return np.bincount(maps.whole[island & mask], minlength=len(maps.names)).astype(np.intp)


def _shaded_side(part: Mask, dark: Floats, maps: SheetMaps) -> bool:
    """Whether a plain part of the paper's hue may be a sliver of a white cup's side: it lies
    across PAPER_SIDE_CELLS cells, on the island, darker than lit paper but no darker than a
    white cup's side (``dark``: how much darker each pixel is, log units)."""
    return (
        _across_cells(part, maps, PAPER_SIDE_CELLS)
        and not _beyond_island(part, maps)
        and bool(LIT_PAPER <= column_median(dark[part]) <= WHITE_SIDE)
    )


def _beyond_island(part: Mask, maps: SheetMaps) -> bool:
    """Whether BEYOND_ISLAND of ``part`` or more lies beyond every cell, on the margin."""
    return bool((part & (maps.whole < 0)).sum() >= BEYOND_ISLAND * part.sum())


def _hides_grid(
    lines: Floats,
    grid: Floats,
    part: Mask,
    maps: SheetMaps,
    lit_response: tuple[float, float] | None,
) -> bool:
    """Whether the printed grid shows through ``part`` at most SIDE_GRID as clearly as on lit
    bare paper (``lit_response``), nor inverted (bare seams) SEAMS_GRID as clearly."""
    if lit_response is None or lit_response[1] < OUTLINES_SHOW:
        return False  # not known how clearly the grid shows: not taken for a cup's side
    response = _grid_response(lines, grid, part, maps)
    return (
        response is not None
        and -SEAMS_GRID * lit_response[0] <= response[0] <= SIDE_GRID * lit_response[0]
    )


def _found_near(over: Mask, group: list[int], maps: SheetMaps) -> bool:
    """Whether ``over`` lies within ACROSS_RIM_MM of the cells of ``group``. Worked out for the
    rare group it is asked of, not for the whole sheet on every scan."""
    return _near(np.isin(maps.whole, group), over, ACROSS_RIM_MM)


def _reaching(regions: Mask, near: Mask) -> Mask:
    """The connected regions of ``regions`` that reach into ``near``."""
    count, labels = cv2.connectedComponents(regions.astype(np.uint8), connectivity=4)
    reached = np.bincount(labels[near & regions], minlength=count) > 0
    reached[0] = False
    return np.asarray(reached[labels], bool)


def _either_side(over: Mask, maps: SheetMaps) -> tuple[Mask, Mask]:
    """``over`` STOP_MM inside and STOP_MM beyond each point along each cell's printed outline
    (cells x 6 edges x points)."""
    on = maps.outline[0]
    outward = on - (maps.centres * SHEET_PPM).astype(np.float32)[:, None, None, :]
    outward *= STOP_MM * SHEET_PPM / np.linalg.norm(outward, axis=-1, keepdims=True)
    return _sampled(over, on - outward), _sampled(over, on + outward)


def _stopping(inside: Mask, beyond: Mask) -> Mask:
    """Per cell and edge, whether what was found over the sheet stops at the printed line:
    found ``inside`` it and not ``beyond`` (as ``_either_side`` samples them) along STOPS_ALONG
    of its points."""
    return np.asarray((inside & ~beyond).mean(axis=2) >= STOPS_ALONG, bool)


def _ending_at_outline(inside: Mask, beyond: Mask) -> Mask:
    """Per cell, whether what was found over the sheet stops at its printed outline
    (``_stopping``) on STOPPED_EDGES of its edges or more: hatching blurred as smooth as a cup,
    joined to one or on its own, ends where its cell does; a cup or a hand is round."""
    return np.asarray(_stopping(inside, beyond).sum(axis=1) >= STOPPED_EDGES, bool)


def _hatching_ending(
    over: Mask, inside: Mask, beyond: Mask, reads: list[Read], maps: SheetMaps
) -> Mask:
    """Per cell, whether it is read cleanly as a pencil and what was found over the sheet stops
    at its outline (``_ending_at_outline``), or does once the cells found so are taken from it:
    blurred hatching of a hand's colour beside it joins the hand cell by cell, and the cell
    between the hand and the rest of that hatching meets something beyond most of its edges."""
    pencilled = _pencilled(reads)
    ending = pencilled & _ending_at_outline(inside, beyond)
    if ending.any():
        rest = over & ~np.isin(maps.whole, np.flatnonzero(ending))
        ending |= pencilled & _ending_at_outline(*_either_side(rest, maps))
    return ending


def _hatching_running_on(
    share: NDArray[np.float64], inside: Mask, beyond: Mask, reads: list[Read], maps: SheetMaps
) -> Mask:
    """Per cell, whether it is read cleanly as a pencil, at least EDGE_SURE sure, what was
    found lies beyond its outline (as ``_either_side`` samples it, on more than 1 - STOPS_ALONG
    of an edge's points) only across edges it shares with cells read cleanly as its pencil, and
    it lies over at most RUN_ON_SHARE of the cell (``share``) and stops at its outline on one
    edge at least, or over at most RUN_ON_SLIVER: hatching that blur joins to a thing beside it
    runs on into the cells of its pencil that lead to the thing, and ends at its outline
    elsewhere; a thing over part of the cell crosses its outline where it comes in, and mixes
    little with its pencil over a sliver of it."""
    pencilled = _pencilled(reads)
    sure = np.array([read.confidence >= EDGE_SURE for read in reads])
    values = np.array([read.value for read in reads], object)
    across = maps.across
    alike = (across >= 0) & pencilled[across] & (values[across] == values[:, None])
    crossed = beyond.mean(axis=2) > 1.0 - STOPS_ALONG
    return np.asarray(
        pencilled
        & sure
        & ~(crossed & ~alike).any(axis=1)
        & (
            (share <= RUN_ON_SLIVER)
            | ((share <= RUN_ON_SHARE) & _stopping(inside, beyond).any(axis=1))
        ),
        bool,
    )


def _spilled_over(inside: Mask, reads: list[Read], rimmed: Mask) -> Mask:
    """Per cell, whether it was read cleanly, at least EDGE_SURE sure, as a pencil (or as bare
    paper where a cup's found rim is all that reaches it: ``rimmed``), and what was found over the
    sheet lies nowhere ``inside`` its outline (as ``_either_side`` samples it): a thing beside it
    whose blurred edge spills over. A cell read bare may lie under a white cup's side, found only
    by the coffee beside it; a cup whose rim was found lies within its rim."""
    clean = np.array([read.problem is None for read in reads])
    sure = np.array([read.confidence >= EDGE_SURE for read in reads])
    named = _pencilled(reads) | (clean & rimmed)
    return np.asarray(named & sure & ~inside.any(axis=(1, 2)), bool)


def covered_cells(
    over: Mask,
    reaching: Mask,
    rims: Mask,
    image: Floats,
    clipped: Mask,
    maps: SheetMaps,
    reads: list[Read],
    edges: Floats,
    outlined: Mask,
    smooth: Mask,
) -> Mask:
    """Per cell, whether a hand or a cup lies over it (``over``: where one was found over the
    sheet, ``reaching`` the part of it found by reaching the margin, ``rims`` where the cups whose
    rims were found lie; ``edges``: how much each edge of each cell's outline shows;
    ``outlined``: whether it shows as a cell's in plain view does). Found over a sliver of a cell
    whose outline does not show, a thing may lie unfound over more of it, mixing with what the
    cell reads as: read less than BESIDE_SURE sure, it is covered too. ``smooth``: where the photo
    is as smooth as paper, as ``smooth_blobs`` takes it."""
    count = len(maps.names)
    whole = maps.whole >= 0
    area = np.maximum(maps.areas, 1)
    things, which = cv2.connectedComponents(over.astype(np.uint8), connectivity=8)
    # Per thing (label 0: nothing), how many pixels of each cell it covers: things are apart,
    # so what those left over cover together is their sum.
    covers = np.bincount(
        which[whole] * count + maps.whole[whole], minlength=things * count
    ).reshape(things, count)
    on_margin = np.bincount(which[maps.margin], minlength=things) > 0
    cover_share = covers / area
    reached = [np.flatnonzero(cover_share[label] >= COVERED_SHARE) for label in range(things)]
    kept = np.arange(things) > 0
    hatched = np.zeros(count, bool)
    for label in range(1, things):
        others = np.zeros(count, bool)
        for other in range(1, things):
            if other != label:
                others[reached[other]] = True
        cells = reached[label]
        if _hatching(cells, cover_share[label, cells], bool(on_margin[label]), others, reads, maps):
            hatched[cells] = True
            kept[label] = False
    share = np.asarray(covers[kept].sum(axis=0) / area, np.float64)
    found = share >= COVERED_SHARE
    unsure = np.array([read.problem is None and read.confidence < BESIDE_SURE for read in reads])
    touched: Mask = (share >= TOUCHED_SHARE) & ~found & ~outlined & unsure
    held = pixels_per_cell(reaching, maps) / area >= COVERED_SHARE
    # A cell that shows its outline but where something found lies over it, in part, is not
    # hatching beside it: hatching ends at its outline, a cup hides the edges it lies over.
    contrast = outline_contrast(edges)
    # Only an edge that something found lies over is judged steady or not: with nothing found,
    # the dark lines' scatter is not worked out at all.
    unsteady = unsteady_edges(image, maps) if over.any() else np.zeros(edges.shape, bool)
    beside = outlined & ~_edge_hidden(over, edges, unsteady, contrast, reads, maps)
    share[_hatching_beside(share, held, beside, reads, maps)] = 0.0
    inside, beyond = _either_side(over, maps)
    share[_hatching_ending(over, inside, beyond, reads, maps)] = 0.0
    rimmed = pixels_per_cell(over & ~rims, maps) == 0
    share[_spilled_over(inside, reads, rimmed)] = 0.0
    share[_hatching_running_on(share, inside, beyond, reads, maps)] = 0.0
    share[_grazed(over, share, edges, contrast, reads, maps)] = 0.0
    # Cells of hatching found so show it as clearly as their outlines would.
    blobs = smooth_blobs(
        image, clipped, maps, reads, contrast, outlined | hatched, found, over, smooth
    )
    return blobs | (share >= COVERED_SHARE) | touched
