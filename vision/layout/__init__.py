"""The physical design of every printed component: sizes, fiducial markers and regions, in mm.

One source of truth for the print sheets, the table renderer and the readers: a reader knows where
to look on a board because the printer put it there.
"""
