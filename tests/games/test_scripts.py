"""The demo's scripted games are pinned: the same seeds give exactly the boards they gave when
each script drove its engine directly (the demo and ``atelier bench live`` rely on them)."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import pytest

from companion.games.scripts import SCRIPTS, Script


def digest(script: Script) -> str:
    """The sha256 of the whole script as canonical JSON: options, opening and every turn."""
    text = json.dumps(dataclasses.asdict(script), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# The demo's own games (2 and 3 players), and longer ones, most of them played to the end.
@pytest.mark.parametrize(
    ("game", "seed", "players", "turns", "expected"),
    [
        ("colorfield", 2, 2, 4, "be940812cb943d7c7341d09e9a06660ab0935e713a1d6e2027ceb37d74fdef9e"),
        ("colorfield", 0, 3, 9, "b588930548fe9a98a0c53587df2de54d5c6e710db28a87bc7ba97287b377104a"),
        ("paintings", 3, 2, 4, "61b9f9c982eb220f4690e4dfec4faac985eefae3e0ca3e7efff3180b807567e8"),
        ("paintings", 3, 3, 4, "940b0992f542937b7a209f8f455640d0457da4e4b7d82f3581136fe4e50010fb"),
        ("paintings", 0, 2, 50, "f552373b0aa3fe240beaf3d2f2d45bfb40597a0c3c6411586c40101d677051e5"),
        (
            "paintings",
            11,
            3,
            50,
            "24b1f53546c082bfd0b7c85e0bc80b67afcc2fb35e023c9e9e6741923921ff19",
        ),
        ("paintings", 5, 1, 50, "ecb0d030a492e6e518257f559ee2e6a02c6cba91a42aa69533af99a77d0acca8"),
        ("isle", 3, 2, 4, "bd8f7647b4d09f4165935e77fe7893aaafaff0e70736ee44e2f49b5056783ccb"),
        ("isle", 0, 2, 60, "8a39d888d0b9959ef4688bd0dfccbf70a537f2c27b78cc19d7009720461c53fc"),
        ("isle", 11, 1, 60, "e35b88f5f471ee1fcb97fb426a4bbc039de48f180c5fea20f0cba8e9e6cef2d8"),
        ("pigments", 7, 2, 8, "7e13efb02babe29e1d86152a03221ad82689e6a5a0bac634dd51b4e0e4b7c2f9"),
        ("pigments", 7, 3, 8, "055b5d6f566a0574020223a0fd9348fc922dc875660c976152f865ccca24f88d"),
        ("pigments", 0, 2, 200, "0766dcc77d21b58b764a1496f869e9904098b5dfe13eaf119690893c00e8a6f5"),
        (
            "pigments",
            11,
            3,
            200,
            "e7e5ac88ead666e22bc5fb05f0225f05fb68b26b3226f45fa5bb87759877c595",
        ),
        ("pigments", 4, 4, 30, "9ddc10047b500c9bc3812ef7962bd99fbe0c36acb894fdeed6a0789cc9e44d15"),
    ],
)
def test_a_script_gives_the_boards_it_always_gave(
    game: str, seed: int, players: int, turns: int, expected: str
) -> None:
    assert digest(SCRIPTS[game](seed, players, turns)) == expected
