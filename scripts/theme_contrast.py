"""How well the board's cursor stands out, in every theme the app offers.

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
"""

from __future__ import annotations

import argparse

from textual.color import Color
from textual.theme import BUILTIN_THEMES

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
    """A stylesheet colour ("$accent 40%", "#ff0000") as seen over `under`."""
    name, _, opacity = spec.partition(" ")
    colour = Color.parse(variables[name[1:]] if name.startswith("$") else name)
    alpha = float(opacity.rstrip("%")) / 100 if opacity else 1.0
    return under.blend(colour, alpha)


def main() -> None:
    """Print the table, the weakest theme first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cursor", default="$foreground",
                        help="the cursor's background (default: the board's, $foreground)")
    parser.add_argument("--minimum", type=float, default=3.0,
                        help="the ratio a focus indicator needs (default 3, WCAG 2.1)")
    args = parser.parse_args()
    rows = []
    for name, theme in BUILTIN_THEMES.items():
        variables = theme.to_color_system().generate()
        cells = [Color.parse(variables[cell]) for cell in CELLS]
        cursors = [resolve(args.cursor, variables, cell) for cell in cells]
        against_cells = min(contrast(cursor, cell) for cursor, cell in zip(cursors, cells,
                                                                          strict=True))
        marks = {mark: contrast(Color.parse(variables[variable]), cursors[0])
                 for mark, variable in MARKS.items()}
        rows.append((against_cells, name, marks))
    print(f"cursor background {args.cursor!r}; ratios below {args.minimum:g}:1 are marked *")
    print(f"{'theme':<22} {'cursor vs cells':>15} {'X on cursor':>12} {'O on cursor':>12}")
    for against_cells, name, marks in sorted(rows):
        flag = "*" if against_cells < args.minimum else " "
        print(f"{name:<22} {against_cells:>14.2f}{flag} {marks['X']:>12.2f} {marks['O']:>12.2f}")
    below = sum(1 for against_cells, _, _ in rows if against_cells < args.minimum)
    print(f"{below} of {len(rows)} themes below {args.minimum:g}:1")


if __name__ == "__main__":
    main()
