"""The Help screen: the rules, the keys, and how the computer thinks, as Markdown.

The text is drawn by Rich's Markdown in one widget (Textual's `Markdown` widget builds a widget
per paragraph, which took ~400 ms to open). The app builds the screen once and shows the same
one each time, so only the first opening lays it out.
"""

from __future__ import annotations

from typing import ClassVar

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from tictactoe_tui.ui.widgets.footer import Footer

HELP_MARKDOWN = """\
# How to play

Two players take turns putting their mark (**X** or **O**) in an empty cell. The first to get
**k marks in a row** — across, down or diagonally — wins; a full board with no such line is a
draw. On 3×3, k is 3. Bigger boards (up to 20×20) default to 5 in a row (or the whole row on
4×4), and you can choose k on the Settings screen.

Whoever moves first makes the first mark, whichever letter it is: you can be O and still start.

# Keys

- `1`–`9`: put your mark on 3×3 (1 is top-left, row by row)
- arrows, then `Enter` or `space`: move the cursor and put your mark (any size); or click a cell
- `c`: switch the computer between clever and random
- `h`: hint, scoring every move you could make now
- `i`: show or hide the evaluation panel; `v`: show or hide the scores on the board
- `e`: the analysis board on this position (the game waits untouched; also from a review and
  from Settings, on an empty board)
- `,` / `.` (or `shift+←` / `shift+→`): step back through this game, read-only, each earlier
  position analysed in the panel while the game waits; `e` opens the position shown on the
  analysis board, a move (or stepping past the last one) returns to the game
- `p`: the expected line of the move picked in the panel (`Tab`, then the arrows, or a
  click), numbered 1, 2, 3… on the board; while the computer thinks, its best line so far
- `f`: predict mode on or off: after your move, say which move the computer will play and
  what the position is worth for it before it is shown (a cell: click, arrows and `Enter`, or
  a digit; then type win, draw or loss and `Enter`; `Escape` skips); each answer is judged
  against proven values
- `u`: undo your last move (and the computer's reply)
- `n`: new game with the same settings; `s`: settings
- `a`: compare the algorithms on this position (minimax, alpha-beta variants, H1, H2) with charts;
  with `--eval FILE`, a row "yours: FILE" searches with your `evaluate` (`r` runs it again)
- `t`: the alpha-beta search from this position as a tree, with a step-by-step replay (`p`
  there: predict which root moves it cuts off or fails low on, and how many positions it
  visits, before the replay)
- `w`: the heuristic lab: every move's H1 and H2, line by line, with H1's weights to edit; with
  `--eval FILE`, your `evaluate` after every move beside them (`r` reads your file again)
- `d`: why a draw: when a pairing strategy proves that the side that moved last cannot lose,
  its pairs are lettered on the board (the same letter: a pair) and you play the other side
  against it; otherwise it says why there is none (`l` steps along a line to one, `r` plays
  again)
- `m`: the match runner: N games between two computer settings, with a table and charts; `g`
  lists its games, and `Enter` opens one in the review
- `y`: the history of every game played; `Enter` on a game reviews it move by move (`←`/`→`,
  `Home`/`End`; `f` plays on from the position shown)
- `L` (shift+l): learn: the course, lesson by lesson from the game's value to threat search,
  each exercise judged against the engine's proofs, with up to three stars per lesson (also
  `tictactoe-tui learn`)
- `z`: puzzles: find the only winning move, or the only defence, in a position whose answer is
  proven (`h` a hint, `n` the next, `d` the puzzle of the day, `g` puzzles from your own games)
- `c`, in a review or the puzzles: your mistakes come back: each move of yours a review marks
  `?!`, `?` or `??` is a card asking for a better move (a click, the arrows and `Enter`, or a
  digit); any move proven as good as the best is right; a missed card comes back after 1 day,
  then 3, then 7 (`n` the next due card)
- `space`: pause or resume a game between two computers (paused, the panel analyses the
  position, and `h` shows it again)
- `l`: an outside engine's last lines of stderr (`--opponent engine:path=PATH`, or
  `--x SPEC --o SPEC` for two different computers; its own words show in the panel as it thinks),
  or, when your own code (`--opponent python:path=FILE`) lost by a fault, its traceback
- `?`: this help; `q`: quit (here: close the help); `ctrl+c` quits as `q` does, asking first
  in the middle of a game
- `ctrl+p`: the command palette (themes, settings, help, history, puzzles and the learning lab)

# The analysis board

Set up any position and explore "what if?": a cell (a click, `Enter`, or `1`–`9` on 3×3)
plays a move for the side to move; a move from a position that already has a continuation
starts a variation, shown in brackets in the move list (a click on a move goes there). Every
position shown is analysed in the panel, its best line drawn on the board.

- `,` / `.` (or `shift+←` / `shift+→`): one move back / forward; `Home` / `End`: the root / the
  end of the line
- `]` / `[`: the next / previous variation; `+`: promote it to the main line; `Delete`: delete
  the move shown and what follows
- `s`: set up: `x`, `o` or `.` puts X, O or nothing on the cursor's cell (a click cycles them),
  `m` switches the side to move, `n` clears; `s` again makes it a new study, `escape` cancels.
  An impossible position is refused in one sentence, and the last legal one stays
- `c`: copy the position's string (shown on screen too); `v`: paste one (`X../.O./...`)
- `h`: the best move; `a`, `t`, `w`, `d`: the lab on the position shown; `D` (shift+d): the
  alpha-beta drill on it; `escape`: back
- `k`: keep the study (root and variations) in the history; `s` on the History screen lists
  the studies and `Enter` reopens one

From the shell, `tictactoe-tui --position "X../.O./..."` (with `--k K` if need be) opens it.

On the Settings screen `Enter` starts the game (on a list it opens the list instead: pick with
the arrows and `Enter`), `Tab` walks the controls, the arrows choose among options, and
`escape` goes back to a game that is still running; `e` opens the analysis board on an empty
board of the chosen size and k.

# How the computer thinks

Every score is seen from the side that is about to move: positive is good for it.

**Minimax** tries every move, then every reply, and so on to the end of the game. It assumes
both sides play their best: the side to move picks the move with the highest score, knowing the
opponent will then pick the lowest for it. From the empty 3×3 board that means visiting 549,946
positions, the empty board itself included; the panel counts the positions searched the same
way, so a minimax hint on the empty board shows that number.

**Depth-aware scores**: a quick win is better than a slow one, and a slow loss better than a
quick one. On 3×3 a win on ply *d* (ply 1 is the move itself) scores **10 − d**, a loss
**−(10 − d)**, a draw **0**. So "win in 1" is 9, and "the opponent wins with its reply" is −8.
Bigger boards use size² + 1 instead of 10.

**Search depth** (Settings, or `--depth`): minimax and alpha-beta can be told to look only so
many plies ahead; where they stop, the position is scored with H1 instead of being played out.
This is the depth cut-off big boards need, and on 3×3 it makes the computer short-sighted on
purpose. Automatic (the default) searches to the end on 3×3 and as deep as the time limit allows
on bigger boards.

**Alpha-beta** gives the same answer as minimax while skipping moves that cannot change it: once
a move is shown to be worse than one already found, the rest of its replies need no look. Good
move ordering and remembering positions already scored make it much faster. On big boards it
searches as deep as the time limit allows and scores the positions where it stops with a
heuristic.

**H1** = 3·X2 + X1 − (3·O2 + O1), from the computer's side (X here): X2 counts the rows,
columns and diagonals holding two of its marks and none of the opponent's, X1 those holding one;
O2 and O1 count the same for the opponent. Two in an open line is worth three times one.

**H2** = Open(computer) − Open(player): the lines that could still be won by the computer (no
mark of the player in them) minus the lines that could still be won by the player.

**The learning lab.** `a` runs minimax, alpha-beta three ways (moves in board order, ordered,
ordered with a transposition table) and the H1 and H2 searches on the position, and shows side by
side the move each picks, its value, the positions it visited, its cut-offs, its table hits, its
time and whether it agrees with minimax, with a chart of the positions (log scale) and one over
the game so far. `t` shows the alpha-beta search as a tree: every move with its value, the α/β
window it was tried with and how it ended (exact, β cut-off, α fail-low), the moves a cut-off
skipped greyed as pruned; `s` replays it event by event (`n` next, `b` back, `e` the end), `o`
switches the alpha-beta variant, `+`/`-` change the depth. `D` (shift+d), on the tree view, the
heuristic lab and the analysis board, opens the alpha-beta drill on the position.

**Predict the search** (`p` on the tree view, before the replay): the tree shows only the root
moves, without values. `m` (or `Enter`, or a click) marks a root move you think alpha-beta will
cut off or fail low on (its value ≤ α when tried: it does not raise α; the search cuts off at
α ≥ β); type in the box how many positions it will visit; `s` (or `Enter` in the box) judges it
and replays the search. Once the replay reaches the end of a root move, its line starts with
✓ or ✗ and a word (mark right, mark wrong, right, missed); the count is right within 10%. The
answers are kept in the history. `p` again leaves prediction mode.

# The alpha-beta drill

Run alpha-beta by hand on a small tree cut from a real position (`D` on the tree view, the
heuristic lab or the analysis board; `tictactoe-tui drill` from the shell). The root is MAX,
every leaf is valued from MAX's side, and the convention in force is stated on screen.

- `↑` / `↓` or a click: select a node; digits and `-`, then `Enter`: the value the search
  returns there (`Enter` with nothing typed rubs it out); `backspace` rubs out a digit
- `x`: mark the node never visited (its whole subtree with it), or take the mark off
- `a` / `b`, then a number (`i` for ∞), then `Enter`: the α or β the node is entered with
- `c`: check: every node judged gets ✓ or ✗, and each wrong one a sentence saying why; the
  drills solved and the streak are kept in the history
- `n`: a fresh tree; `k`: cut at α ≥ β or only at α > β; `f`: fail-soft or fail-hard
- `r`: the reorder exercise: `shift+↑` / `shift+↓` (or `[` / `]`) move the selected child among
  its siblings, so that the search visits as few leaves as it can; the count is shown live
  against the best order, and `c` checks it; `r` again goes back to filling in
- `escape`: drop the number being typed, or leave the drill

The heuristic players win at once if they can, block an immediate loss otherwise, and else pick
the move whose board scores best under their heuristic.

**Difficulty** *d* (1–100): before each move the computer plays its clever move with probability
d/100, and a random legal move otherwise. At 100 it never errs (on 3×3 you can draw at best); at
50 it blunders about half the time. The panel says which kind of move it was.
"""
"""The help text: rules, keys, and a plain explanation of the computer's algorithms."""


class HelpScreen(Screen[None]):
    """Rules, keys and how the computer thinks; escape or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
    ]

    def compose(self) -> ComposeResult:
        """The help text in a scrollable box."""
        yield Header()
        with VerticalScroll(id="help-scroll"):
            yield Static(Markdown(HELP_MARKDOWN), id="help-text")
        yield Footer()

    def on_screen_resume(self) -> None:
        """Open at the top, with the text focused so the arrows and page keys scroll it."""
        scroll = self.query_one("#help-scroll", VerticalScroll)
        scroll.scroll_home(animate=False)
        scroll.focus()

    def action_close(self) -> None:
        """Go back to the screen underneath."""
        self.dismiss()
