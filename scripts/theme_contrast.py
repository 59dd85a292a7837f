"""How well the board's cursor and marks stand out, in every theme the app offers.

    python scripts/theme_contrast.py [--cursor '$foreground'] [--minimum 3]

For each Textual theme: the contrast ratio (WCAG 2.1) between the cursor cell's background and
the two backgrounds of the cells around it (`$surface`, and `$surface-lighten-1` for the darker
squares of big boards), and between the marks' colours (`$primary` for X, `$warning` for O) and
the cursor's background. WCAG asks 3:1 of a focus indicator against what surrounds it; the
themes below `--minimum` are marked. `--cursor` takes a colour as the stylesheet writes it: a
theme variable or a colour, and an optional opacity over `$surface`.

The board draws its cursor in reverse video (`board--cursor`): a block of the theme's foreground
colour with the mark in the cell's own background colour, so its default here is `$foreground`
and a mark on it contrasts as the block does. (`$accent 40%`, the cursor before, left 20 of 21
themes below 3:1.) The two ANSI themes leave colours to the terminal: the script cannot measure
them (it shows 1.00), and reverse video there is the terminal's own.

The marks and the words are measured against the cells too: X and O (`$primary`, `$warning`), the
board's labels (`$text-muted` over `$panel`) and a bound's fainter figures (`$text-disabled`).
The app's `high-contrast` theme must reach `HIGH_CONTRAST_NEEDS` on every one of them (7:1, WCAG's
AAA level for text; 4.5:1, its AA level, for the fainter bounds); the script exits with status 1
when it does not, after the table.
"""

from __future__ import annotations

import argparse
import sys

from textual.color import Color
from textual.theme import BUILTIN_THEMES, Theme

from tictactoe_tui.ui.themes import HIGH_CONTRAST, OWN_THEMES

CELLS = ("surface", "surface-lighten-1")
"""The backgrounds of the cells around the cursor."""

MARKS = {"X": "primary", "O": "warning"}
"""The colour each mark is drawn in."""


def luminance(colour: Color) -> float:
    """The relative luminance of an opaque colour (WCAG 2.1)."""

    def channel(value: int) -> float:
        scaled = value / 255
        return scaled / 12.92 if scaled <= 0.03928 else ((scaled + 0.055) / 1.055) ** 2.4

    red, green, blue = colour.rgb
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(one: Color, other: Color) -> float:
    """The contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def resolve(spec: str, variables: dict[str, str], under: Color) -> Color:
    """A stylesheet colour ("$accent 40%", "#ff0000", "auto 60%") as seen over `under`."""
    if spec.startswith("$"):
        name, _, rest = spec[1:].partition(" ")
        spec = f"{variables[name]} {rest}".strip()
    name, _, opacity = spec.partition(" ")
    alpha = float(opacity.rstrip("%")) / 100 if opacity else 1.0
    # "auto": Textual's text colour that contrasts with what is under it.
    colour = under.get_contrast_text() if name == "auto" else Color.parse(name)
    return under.blend(colour, alpha)


PAIRS = {
    "X on cell": ("$primary", "surface"),
    "O on cell": ("$warning", "surface"),
    "text on cell": ("$foreground", "surface"),
    "labels": ("$text-muted", "panel"),
    "bounds": ("$text-disabled", "surface"),
}
"""The marks and words measured against what they are drawn on: (colour, background)."""

HIGH_CONTRAST_NEEDS = {
    "cursor vs cells": 3.0,
    "X on cell": 7.0,
    "O on cell": 7.0,
    "text on cell": 7.0,
    "labels": 7.0,
    "bounds": 4.5,
}
"""The ratio the high-contrast theme must reach on each measure."""


def measure(theme: Theme, cursor: str = "$foreground") -> dict[str, float]:
    """Every ratio the table shows, for one theme."""
    variables = theme.to_color_system().generate()
    cells = [Color.parse(variables[cell]) for cell in CELLS]
    cursors = [resolve(cursor, variables, cell) for cell in cells]
    ratios = {
        "cursor vs cells": min(contrast(c, cell) for c, cell in zip(cursors, cells, strict=True))
    }
    for mark, variable in MARKS.items():
        ratios[f"{mark} on cursor"] = contrast(Color.parse(variables[variable]), cursors[0])
    for name, (colour, background) in PAIRS.items():
        under = Color.parse(variables[background])
        ratios[name] = contrast(resolve(colour, variables, under), under)
    return ratios


def shortfalls(theme: Theme = HIGH_CONTRAST) -> list[str]:
    """What the high-contrast theme misses (empty when it reaches every ratio it needs)."""
    ratios = measure(theme)
    return [
        f"{theme.name}: {name} {ratios[name]:.2f} < {need:g}"
        for name, need in HIGH_CONTRAST_NEEDS.items()
        if ratios[name] < need
    ]


def main() -> None:
    """Print the table, the weakest theme first; exit 1 if the high-contrast theme falls short."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--cursor",
        default="$foreground",
        help="the cursor's background (default: the board's, $foreground)",
    )
    parser.add_argument(
        "--minimum",
        type=float,
        default=3.0,
        help="the ratio a focus indicator needs (default 3, WCAG 2.1)",
    )
    args = parser.parse_args()
    themes = {**BUILTIN_THEMES, **{theme.name: theme for theme in OWN_THEMES}}
    rows = [(measure(theme, args.cursor), name) for name, theme in themes.items()]
    columns = ["cursor vs cells", "X on cursor", "O on cursor", *PAIRS]
    print(f"cursor background {args.cursor!r}; cursors below {args.minimum:g}:1 are marked *")
    print(f"{'theme':<22}" + "".join(f"{column:>16}" for column in columns))
    for ratios, name in sorted(rows, key=lambda row: row[0]["cursor vs cells"]):
        flag = "*" if ratios["cursor vs cells"] < args.minimum else " "
        cells = [
            f"{ratios[columns[0]]:>15.2f}{flag}",
            *(f"{ratios[column]:>16.2f}" for column in columns[1:]),
        ]
        print(f"{name:<22}" + "".join(cells))
    below = sum(1 for ratios, _ in rows if ratios["cursor vs cells"] < args.minimum)
    print(f"{below} of {len(rows)} themes' cursors below {args.minimum:g}:1")
    missing = shortfalls()
    for line in missing:
        print(line, file=sys.stderr)
    if missing:
        sys.exit(1)
    needs = ", ".join(f"{name} {need:g}" for name, need in HIGH_CONTRAST_NEEDS.items())
    print(f"{HIGH_CONTRAST.name} reaches every ratio it needs ({needs})")


if __name__ == "__main__":
    main()
