"""The Settings screen: one control per command-line flag, and Start.

The flow: the app pushes this screen with the current settings; Start (or Enter anywhere but in
an open list) checks every control with the same rules as the command line, shows what is wrong
beside its control, or dismisses the screen with the new `GameSettings`, which the app turns into
a game. Escape, when a game is waiting underneath, dismisses it with None: back to that game.
`e` opens the analysis board on an empty board of the chosen size and k, over this screen.

Keyboard: Start has the focus at first, so Enter starts the defaults; Tab walks the controls in
order (arrows choose in a radio set, Enter opens a list, Enter elsewhere starts). The hint beside
Start says what Enter does where the focus is.
Mouse: every choice is a click, and the number boxes have − / + buttons.
Served to browsers (`serve`), the outside engine is a list of the programs the server's command
line offers, not a path to type (the computer player offers an outside engine only when there is
one), and a player spec typed for X or O that names any other file is refused beside it. The
learner's Python file (the computer player "Your Python file", `python:path=FILE`) is the same:
a path to type in the terminal, a list of the files the server offers when served.
Small terminals: below `TWO_COLUMNS_WIDTH` the controls stack in one column; below
`MIN_WIDTH`×`MIN_HEIGHT` the form gives way to a message asking for a bigger terminal.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.validation import ValidationResult, Validator
from textual.widget import Widget
from textual.widgets import (
    Button,
    Footer,
    Header,
    Input,
    Label,
    RadioButton,
    RadioSet,
    Select,
    Static,
)

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.players.offered import Offered
from tictactoe_tui.engine.rules.board import MAX_SIZE, MIN_K, MIN_SIZE, default_k
from tictactoe_tui.play.settings import (
    MAX_DEPTH,
    MAX_DIFFICULTY,
    MAX_TIME_LIMIT,
    MIN_DEPTH,
    MIN_DIFFICULTY,
    GameSettings,
    Mode,
    SettingError,
    settings_from_text,
)
from tictactoe_tui.ui.messages import Analyse
from tictactoe_tui.ui.themes import THEMES
from tictactoe_tui.ui.widgets.too_small import TooSmall

MODE_LABELS: dict[str, str] = {
    Mode.HUMAN_VS_COMPUTER: "You against the computer",
    Mode.HUMAN_VS_HUMAN: "Two people, one keyboard",
    Mode.COMPUTER_VS_COMPUTER: "Watch two computers",
}
"""How the Settings screen names each mode."""

FIRST_LABELS = {"human": "You", "computer": "The computer"}
"""How the Settings screen names who moves first."""

OPPONENT_LABELS = {
    "alphabeta": "Alpha-beta (clever, fast)",
    "minimax": "Minimax (clever, every node)",
    "h1": "Heuristic H1",
    "h2": "Heuristic H2",
    "random": "Random",
    "engine": "Outside engine (Gomocup brain)",
    "python": "Your Python file (choose or evaluate)",
}
"""How the Settings screen names each computer player, strongest first."""

MIN_WIDTH, MIN_HEIGHT = 40, 12
"""The smallest terminal the form is shown in: a list opened in anything narrower has no room
for its options (Textual's option list fails to lay them out), and anything lower shows less
than one control between the title and Start."""

TWO_COLUMNS_WIDTH = 90
"""From this width the controls sit in two columns; below it, in one."""

DEFAULT_K = "default"
"""The k list's value for "the default for this board size"."""

PREDICT_LABELS = {"off": "Off", "on": "On"}
"""Predict mode's switch (`GameSettings.predict`)."""

HINTS = {
    "start": "Enter starts · Tab moves · ? help",
    "list": "Enter opens the list · Tab moves · ? help",
    "open list": "↑↓ pick · Enter chooses · Escape closes the list",
}
"""The line beside Start: what Enter does where the focus is (a list takes it to open)."""

STEPS: dict[str, float] = {"difficulty": 10, "time_limit": 0.5}
"""How far the − / + buttons move each number box."""

STEP_LIMITS: dict[str, tuple[float, float]] = {
    "difficulty": (MIN_DIFFICULTY, MAX_DIFFICULTY),
    "time_limit": (STEPS["time_limit"], MAX_TIME_LIMIT),
}
"""The range the − / + buttons keep each number box inside."""


class SettingValidator(Validator):
    """Checks the text of one setting with the same rules (and words) as the command line."""

    def __init__(self, field: str) -> None:
        super().__init__()
        self.field = field

    def validate(self, value: str) -> ValidationResult:
        """Valid when `GameSettings` accepts the text for this field."""
        try:
            settings_from_text({self.field: value}, THEMES)
        except SettingError as error:
            return self.failure(error.problem.capitalize())
        return self.success()


class NumberInput(Input):
    """A text box for a number: it leaves "?" to the app, so help opens from here too."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Take every printable key but "?" (a number never holds one)."""
        return character != "?" and super().check_consume_key(key, character)


class ChoiceSet(RadioSet, inherit_bindings=False):
    """A radio set whose arrows choose (as radio buttons do in a browser or a desktop form).

    Textual's arrows only move a highlight and Enter presses the highlighted button; here the
    highlight and the choice never differ, so Enter is left to the screen: it starts the game,
    as the hint says. (No binding is inherited: RadioSet's own would take Enter.)
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,right", "choose_next", "Next option", show=False),
        Binding("up,left", "choose_previous", "Previous option", show=False),
        Binding("space", "toggle_button", "Choose", show=False),
    ]

    def action_choose_next(self) -> None:
        """Choose the next option."""
        self.action_next_button()
        self.action_toggle_button()

    def action_choose_previous(self) -> None:
        """Choose the previous option."""
        self.action_previous_button()
        self.action_toggle_button()


def _path_field(
    ident: str, value: str, placeholder: str, offered: Sequence[str] | None, none: str
) -> Widget:
    """A file to run: a path to type, or (`offered`, under serve) a choice of only those paths;
    `none` names what is missing when the server offers nothing ("no Python file")."""
    if offered is None:
        return Input(value, placeholder=placeholder, id=ident)
    return Select(
        [(path, path) for path in offered],
        value=value if value in offered else offered[0] if offered else Select.NULL,
        allow_blank=not offered,
        prompt=f"this server offers {none}",
        id=ident,
    )


class SettingsScreen(Screen[GameSettings | None]):
    """Choose the game: mode, who starts, marks, opponent, difficulty, board, time, seed, theme."""

    AUTO_FOCUS = ""
    """The screen places the focus itself: on Start, and on nothing while the form is hidden."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back to the game"),
        Binding("e", "analyse", "Analysis board"),
        # Reached from the radio sets only: Start, the text boxes and the lists take their own
        # Enter first.
        Binding("enter", "start", "Start", show=False),
    ]

    def __init__(
        self,
        settings: GameSettings | None = None,
        can_cancel: bool = False,
        offered: Offered | None = None,
    ) -> None:
        """Prefill the controls from `settings`; `can_cancel` lets escape go back to a game.
        `offered`: served to browsers, the only outside engines to choose from."""
        super().__init__()
        self.offered = offered
        """Served to browsers: what the server offers (None: the terminal app)."""
        self.settings = settings if settings is not None else GameSettings()
        """The settings the controls started from."""
        self.can_cancel = can_cancel
        """Whether a game is waiting underneath (escape goes back to it)."""
        self._focus_before: Widget | None = None

    def compose(self) -> ComposeResult:
        """Two columns of labelled controls, then Start."""
        yield Header()
        # Not focusable itself: Tab should go straight from Start to the first control.
        with VerticalScroll(id="settings-form", can_focus=False), Horizontal(id="settings-columns"):
            with Vertical(id="players-column", classes="settings-column"):
                yield from self._player_fields()
            with Vertical(id="board-column", classes="settings-column"):
                yield from self._board_fields()
                yield from self._search_fields()
                yield from self._theme_field()
        # Outside the scrolling form, so Start stays in sight whatever the form shows.
        with Horizontal(id="settings-actions"):
            yield Button("Start", variant="primary", id="start")
            yield Static(HINTS["start"], id="settings-hint")
        yield TooSmall(id="settings-too-small")
        yield Footer()

    def _player_fields(self) -> ComposeResult:
        """The players' column: who plays whom, who starts, the marks, predict mode, the
        computer player (its program or file, how clever it is) and the two computers'."""
        s = self.settings
        yield from _field("Mode", "mode", _radio_set("mode", MODE_LABELS, s.mode))
        yield from _field("Who moves first", "first", _radio_set("first", FIRST_LABELS, s.first))
        yield from _field(
            "Your mark",
            "mark",
            _radio_set("mark", {"X": "X", "O": "O"}, s.mark),
        )
        yield from _field(
            "Predict the computer's moves (asked before each is shown)",
            "predict",
            _radio_set("predict", PREDICT_LABELS, "on" if s.predict else "off"),
        )
        yield from _field(
            "Computer player",
            "opponent",
            self._opponent_select(s.opponent),
        )
        yield from _field(
            "Outside engine: its pbrain program", "engine", self._engine_field(s.engine)
        )
        yield from _field(
            "Your Python file (python:path=FILE)",
            "learner",
            self._learner_field(s.learner),
        )
        yield from _field(
            "Difficulty (% clever moves, 1–100)",
            "difficulty",
            *_stepper("difficulty", str(s.difficulty)),
        )
        yield from _field(
            "Two computers: X plays (blank: as above)",
            "x",
            Input(s.x, placeholder="alphabeta:time=0.5, engine:path=…", id="x"),
        )
        yield from _field(
            "Two computers: O plays (blank: as above)",
            "o",
            Input(s.o, placeholder="h1, engine:path=…:time=2", id="o"),
        )

    def _board_fields(self) -> ComposeResult:
        """The board's column, first: its size and the marks in a row that win."""
        s = self.settings
        yield from _field(
            "Board size",
            "size",
            Select(
                [(f"{n}×{n}", n) for n in range(MIN_SIZE, MAX_SIZE + 1)],
                value=s.size,
                allow_blank=False,
                id="size",
            ),
        )
        yield from _field(
            "Marks in a row to win",
            "k",
            Select(k_options(s.size), value=k_choice(s.size, s.k), allow_blank=False, id="k"),
        )

    def _search_fields(self) -> ComposeResult:
        """The board's column, then: the computer's time, depth and seed."""
        s = self.settings
        yield from _field(
            "Seconds per computer move (boards over 3×3)",
            "time_limit",
            *_stepper("time_limit", f"{s.time_limit:g}"),
        )
        yield from _field(
            f"Search depth, plies {MIN_DEPTH}–{MAX_DEPTH} (blank: automatic)",
            "depth",
            NumberInput(
                "" if s.depth is None else str(s.depth),
                placeholder="automatic",
                restrict=r"\d*",
                validators=[SettingValidator("depth")],
                id="depth",
            ),
        )
        yield from _field(
            "Seed (blank: different every game)",
            "seed",
            NumberInput(
                "" if s.seed is None else str(s.seed),
                placeholder="any whole number",
                restrict=r"-?\d*",
                validators=[SettingValidator("seed")],
                id="seed",
            ),
        )

    def _theme_field(self) -> ComposeResult:
        """The board's column, last: the theme."""
        s = self.settings
        yield from _field(
            "Theme",
            "theme",
            Select(
                [(name, name) for name in THEMES],
                value=s.theme,
                allow_blank=False,
                id="theme",
            ),
        )

    def _opponent_select(self, opponent: str) -> Select[str]:
        """The computer players; served, no outside engine or Python file unless one is
        offered."""
        offered = self.offered
        unoffered = (
            set()
            if offered is None
            else {
                name
                for name, paths in (("engine", offered.engines), ("python", offered.python))
                if not paths
            }
        )
        names = [name for name in OPPONENT_LABELS if name not in unoffered]
        return Select(
            [(OPPONENT_LABELS[name], name) for name in names],
            value=opponent if opponent in names else GameSettings().opponent,
            allow_blank=False,
            id="opponent",
        )

    def _engine_field(self, engine: str) -> Widget:
        """The outside engine's program: a path to type, or (served) one of those offered."""
        offered = None if self.offered is None else self.offered.engines
        return _path_field("engine", engine, "/path/to/pbrain-engine", offered, "no outside engine")

    def _learner_field(self, learner: str) -> Widget:
        """The learner's Python file: a path to type, or (served) one of those offered."""
        offered = None if self.offered is None else self.offered.python
        return _path_field(
            "learner", learner, "examples/minimax_player.py", offered, "no Python file"
        )

    def on_mount(self) -> None:
        """Put the focus on Start, so Enter plays the game as set (once the form shows)."""
        self._show_first_mark()
        self._fit_terminal()
        if not self.has_class("-too-small"):
            self.query_one("#start", Button).focus()

    def on_resize(self, event: events.Resize) -> None:
        """Lay the form out for the new size, or ask for a bigger terminal."""
        self._fit_terminal()

    def _fit_terminal(self) -> None:
        """One column or two for the terminal's width; a message instead when it is too small.

        While the form is hidden nothing in it keeps the focus (a key must not start a game or
        open a list nobody sees), and the control that had it gets it back afterwards.
        """
        self.set_class(self.app.size.width < TWO_COLUMNS_WIDTH, "-one-column")
        was_small = self.has_class("-too-small")
        keys = "escape goes back to the game; q quits." if self.can_cancel else "q quits."
        too_small = self.query_one(TooSmall).fit(
            (MIN_WIDTH, MIN_HEIGHT), "the Settings screen", keys
        )
        if too_small == was_small:
            return
        if too_small:
            focused = self.focused
            # An open list has the focus on its overlay, inside it: it goes back to the list.
            parent = focused.parent if focused is not None else None
            self._focus_before = parent if isinstance(parent, Select) else focused
            for select in self.query(Select):
                select.expanded = False
            self.set_focus(None)
        else:
            # Once the form is laid out again: a widget that does not show cannot take it.
            self.call_after_refresh(
                self.set_focus, self._focus_before or self.query_one("#start", Button)
            )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer "Back to the game" only when there is a game to go back to; no Enter to start
        while the form is hidden."""
        if action == "back":
            return self.can_cancel
        if action == "start":
            return not self.has_class("-too-small")
        return True

    def action_back(self) -> None:
        """Go back to the game unchanged (undoing a theme preview): dismissed with None."""
        self.app.theme = self.settings.theme
        self.dismiss(None)

    def action_start(self) -> None:
        """Enter on a radio set or a closed list: start, as the hint promises."""
        self.start()

    def action_analyse(self) -> None:
        """Open the analysis board on an empty board of the chosen size and k (a setting that
        cannot be used is shown beside its control instead)."""
        try:
            settings = settings_from_text(self._texts(), THEMES)
        except SettingError as error:
            self._show_error(error.field, error.problem.capitalize(), focus=True)
            return
        self.post_message(Analyse(Board.empty(settings.size, settings.win_length), settings))

    @on(Button.Pressed, "#start")
    @on(Input.Submitted)
    def start(self) -> None:
        """Start the game as set, or show what is wrong beside its control."""
        try:
            settings = settings_from_text(self._texts(), THEMES)
        except SettingError as error:
            self._show_error(error.field, error.problem.capitalize(), focus=True)
            return
        self.dismiss(settings)

    @on(Input.Changed)
    def _input_changed(self, event: Input.Changed) -> None:
        """Say at once when a typed value cannot be used."""
        result = event.validation_result
        problem = "" if result is None or result.is_valid else result.failure_descriptions[0]
        self._show_error(event.input.id or "", problem)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Keep the hint true: Enter opens a list, chooses in an open one, starts elsewhere."""
        widget = event.widget
        hint = (
            "list"
            if isinstance(widget, Select)
            else "open list"
            if isinstance(widget.parent, Select)
            else "start"
        )
        self.query_one("#settings-hint", Static).update(HINTS[hint])

    @on(Select.Changed, "#size")
    def _size_changed(self, event: Select.Changed) -> None:
        """Offer only the winning lengths that fit the new board size."""
        size = event.value
        assert isinstance(size, int)
        fit_k_options(self.query_one("#k", Select), size)

    @on(RadioSet.Changed, "#mode")
    @on(RadioSet.Changed, "#first")
    @on(RadioSet.Changed, "#mark")
    def _show_first_mark(self) -> None:
        """Say which mark starts, and who plays it; with no person playing, "who moves first"
        and "your mark" mean nothing: they are disabled."""
        mode, first, mark = (
            _pressed(self.query_one(f"#{name}", RadioSet)) for name in ("mode", "first", "mark")
        )
        self.query_one("#first-label", Label).update(first_label(mode, first, mark))
        no_person = mode == Mode.COMPUTER_VS_COMPUTER
        for name in ("first", "mark"):
            self.query_one(f"#{name}", RadioSet).disabled = no_person
        self._show_player_fields()

    @on(Select.Changed, "#opponent")
    def _show_player_fields(self) -> None:
        """Show the outside engine's path only when an outside engine is the computer player,
        and each side's player only when two computers play: fields that mean nothing for the
        game set up stay out of sight (and out of the Tab order)."""
        mode = _pressed(self.query_one("#mode", RadioSet))
        opponent = self.query_one("#opponent", Select).value
        # A search with the learner's evaluation (alphabeta:eval=FILE) keeps its file in
        # sight, so it is neither lost nor hidden.
        learner = opponent == "python" or (
            opponent in ("alphabeta", "minimax") and bool(self.settings.learner)
        )
        shown = {
            "engine": opponent == "engine" and mode != Mode.HUMAN_VS_HUMAN,
            "learner": learner and mode != Mode.HUMAN_VS_HUMAN,
            "x": mode == Mode.COMPUTER_VS_COMPUTER,
            "o": mode == Mode.COMPUTER_VS_COMPUTER,
            "predict": mode == Mode.HUMAN_VS_COMPUTER,
        }
        for name, show in shown.items():
            self.query_one(f"#{name}-label").display = show
            self.query_one(f"#{name}").display = show
            if not show:
                self.query_one(f"#{name}-error").display = False

    @on(Select.Changed, "#theme")
    def _theme_changed(self, event: Select.Changed) -> None:
        """Preview the theme straight away."""
        if isinstance(event.value, str):
            self.app.theme = event.value

    @on(Button.Pressed, ".step")
    def _step(self, event: Button.Pressed) -> None:
        """Move a number box up or down by its step, staying in range."""
        field = event.button.name or ""
        box = self.query_one(f"#{field}", Input)
        low, high = STEP_LIMITS[field]
        try:
            value = float(box.value)
        except ValueError:
            value = low
        step = STEPS[field]
        # Go to the next mark on the grid (10, 20, ...), so 55 steps to 60 or 50, not 65 or 45.
        if event.button.has_class("step-up"):
            value = (math.floor(value / step) + 1) * step
        else:
            value = (math.ceil(value / step) - 1) * step
        box.value = f"{min(high, max(low, value)):g}"

    def _texts(self) -> dict[str, str]:
        """Every control's value as the text `settings_from_text` reads."""
        texts = {
            name: _pressed(self.query_one(f"#{name}", RadioSet))
            for name in ("mode", "first", "mark", "predict")
        }
        for name in ("opponent", "size", "k", "theme"):
            value = self.query_one(f"#{name}", Select).value
            if value != DEFAULT_K:
                texts[name] = str(value)
        for name in ("difficulty", "time_limit", "depth", "seed", "engine", "learner", "x", "o"):
            field = self.query_one(f"#{name}")
            # A field out of sight means nothing for this game (see _show_player_fields).
            # Served, the engine is a list (Select.NULL when it offers none).
            value = field.value if isinstance(field, Input | Select) and field.display else ""
            texts[name] = value.strip() if isinstance(value, str) else ""
        # Not a control: the app's --eval FILE goes on to the next game as it came.
        texts["eval_file"] = self.settings.eval_file
        return texts

    def _show_error(self, field: str, problem: str, focus: bool = False) -> None:
        """Show `problem` under the control of `field` (an empty problem clears it).

        With `focus`, the control takes the focus too, so the fix is one keystroke away.
        """
        for message in self.query(f"#{field}-error").results(Static):
            message.update(problem)
            message.display = bool(problem)
            if focus:
                self.set_focus(self.query_one(f"#{field}"))


def first_label(mode: str, first: str, mark: str) -> str:
    """The "who moves first" label: the mark that starts and, against the computer, who plays
    it ("Who moves first (O starts: the computer)")."""
    settings = settings_from_text({"mode": mode, "first": first, "mark": mark})
    starts = settings.first_mark
    if mode != Mode.HUMAN_VS_COMPUTER:
        return f"Who moves first ({starts} starts)"
    who = "the computer" if settings.is_computer(starts) else "you"
    return f"Who moves first ({starts} starts: {who})"


def _field(title: str, name: str, *controls: Widget) -> Iterator[Widget]:
    """A label, the control(s) of setting `name`, and the (hidden) line for its problems."""
    yield Label(title, id=f"{name}-label", classes="field-label")
    if len(controls) == 1:
        yield controls[0]
    else:
        yield Horizontal(*controls, classes="field-row")
    error = Static("", id=f"{name}-error", classes="field-error")
    error.display = False
    yield error


def _radio_set(name: str, labels: dict[str, str], chosen: str) -> RadioSet:
    """A radio set whose buttons carry the setting value as their name (and id "name-value")."""
    return ChoiceSet(
        *(
            RadioButton(label, value=value == chosen, name=value, id=f"{name}-{value}")
            for value, label in labels.items()
        ),
        id=name,
        classes="horizontal" if len(labels) < 3 else "",
    )


def _pressed(radio_set: RadioSet) -> str:
    """The setting value of the pressed button of `radio_set`."""
    button = radio_set.pressed_button
    return button.name or "" if button is not None else ""


def _stepper(name: str, value: str) -> tuple[Widget, ...]:
    """A number box with − and + buttons for the mouse (keyboard users type the number)."""
    down = Button("−", name=name, id=f"{name}-down", classes="step step-down")
    up = Button("+", name=name, id=f"{name}-up", classes="step step-up")
    # The buttons are for the mouse: typing is quicker, so Tab skips them.
    down.can_focus = up.can_focus = False
    # Quick repeated clicks are how a stepper is used; the press animation would swallow them.
    down.active_effect_duration = up.active_effect_duration = 0
    box = NumberInput(value, restrict=r"[\d.]*", validators=[SettingValidator(name)], id=name)
    return box, down, up


def k_options(size: int) -> list[tuple[str, int | str]]:
    """The winning lengths a board of `size` allows, shortest first. The default one is
    `DEFAULT_K` (it follows the board size), so no length is offered twice."""
    default = default_k(size)
    return [
        (f"{k} (default)", DEFAULT_K) if k == default else (str(k), k)
        for k in range(MIN_K, size + 1)
    ]


def k_choice(size: int, k: int | None) -> int | str:
    """The k list's value for a game's `k` on a `size` board: `DEFAULT_K` for the default."""
    return DEFAULT_K if k is None or k == default_k(size) else k


def fit_k_options(k_select: Select[int | str], size: int) -> None:
    """Offer the winning lengths of a `size` board in `k_select`, keeping a k that still fits."""
    k = k_select.value
    k_select.set_options(k_options(size))
    k_select.value = k_choice(size, k if isinstance(k, int) and k <= size else None)
    # The list redraws its label only when its value changes, and "default" stays "default"
    # while what it stands for ("3 (default)" or "5 (default)") changes with the size.
    k_select.mutate_reactive(Select.value)  # type: ignore[misc]  # Textual's own way to say it
