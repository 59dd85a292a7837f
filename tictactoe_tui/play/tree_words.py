"""The tree explorer's words: the step panel, the prediction's verdict as far as the replay has
gone, the search's counts in the title."""

from __future__ import annotations

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.trace import TraceRecorder, TraceResult
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.tree_lines import TreeLines
from tictactoe_tui.text.lab import event_words, signed, value_words, window_words
from tictactoe_tui.text.scores import first_cut_text, left_out_words

__all__ = ["PREDICT_HELP", "counts_words", "step_words", "verdict_words"]

PREDICT_HELP = (
    "Predict the search: m (or Enter, or a click) marks a root move you think alpha-beta will "
    "cut off or fail low on; type in the box how many positions it will visit; s (or Enter in "
    "the box) replays the search and judges your prediction; p leaves."
)
"""The step panel while a prediction is made."""


def step_words(lines: TreeLines) -> str:
    """The step panel: the event in words, the window, the running counts."""
    shown = lines.shown
    recorder = shown.recorder
    if recorder is None:
        return ""
    if shown.asking is not None:
        return f"{PREDICT_HELP}\n{shown.asking.words()}"
    if shown.step is None:
        return (
            f"Step mode (s, or n to step): replay the {len(recorder.events):,} recorded "
            "events one at a time: enter a node, score a leaf, raise α, cut, return."
        )
    event = recorder.events[shown.step]
    words = event_words(
        recorder.events, shown.step, recorder.nodes, shown.position, shown.heuristic
    )
    return (
        f"Event {shown.step + 1:,} of {len(recorder.events):,}: {event.kind.value}\n"
        f"{words}\n"
        f"Window {window_words(event.alpha, event.beta, shown.position)} · "
        f"positions visited {event.positions:,} · moves pruned {event.pruned:,}"
    )


def verdict_words(lines: TreeLines) -> str:
    """The prediction's verdict as far as the replay has gone: the marks, then the count."""
    verdict = lines.shown.verdict
    if verdict is None:
        return ""
    shown = [v for v in verdict.moves if lines.fate_shown(v.move)]
    right = sum(v.right for v in shown)
    ticks = " ".join(
        f"{'✓' if v.right else '✗'}{cell_notation(v.move, lines.shown.position.size)}"
        for v in shown
    )
    if not shown:
        marks = "each root move is judged when the replay reaches its end"
    elif len(shown) < len(verdict.moves):
        marks = (
            f"{right} of {len(shown)} root moves right so far ({ticks}); "
            f"{len(verdict.moves) - len(shown)} still to come"
        )
    else:
        marks = f"{right} of {len(shown)} root moves right ({ticks})"
    if verdict.count is None:
        count = "no guess of the positions"
    elif lines.replay_done():
        count = verdict.count.sentence
    else:
        count = f"the count ({verdict.count.guess:,} guessed) is judged at the replay's end"
    return f"Your prediction: {marks} · {count}"


def counts_words(
    result: TraceResult | None, recorder: TraceRecorder | None, position: Board
) -> str:
    """The search's counts for the title: its value, positions, cut-offs, pruning, table hits."""
    if result is None or recorder is None:
        return "Searching…"
    value = (
        f"Value {signed(result.value)} ({value_words(result, position)})"
        if result.finished
        else f"Stopped: {result.stopped}"
    )
    first = f" ({first_cut_text(result)} by the 1st move tried)" if result.cutoffs else ""
    counts = (
        f"{value} · {result.positions:,} positions · {result.cutoffs:,} cut-offs"
        f"{first} · {result.pruned:,} moves pruned · {result.table_hits:,} table hits"
    )
    left_out = left_out_words(result)
    if left_out:
        counts += f" · {left_out} at the root"
    if recorder.truncated:
        counts += (
            f" · recording capped at {len(recorder.events):,} of {recorder.total_events:,} events"
        )
    return counts
