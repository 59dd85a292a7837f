"""The score vocabulary is typed: each word is an enum member equal to the string DESIGN.md fixes,
strings still read as members, and `MoveScore.exact` is derived from the kind, never stored."""

from __future__ import annotations

import json
from dataclasses import fields, replace

import pytest

from tests.engine.positions import reachable_3x3
from tictactoe_tui.engine import BANDS, KINDS, RULES, SOURCES, MoveScore, analyse_position
from tictactoe_tui.engine.search.types import (
    GAME_RULES,
    THREAT_RULES,
    Algorithm,
    Analysis,
    Band,
    IterationInfo,
    Kind,
    Progress,
    Rule,
    Source,
    equally_good,
    same_estimate,
)


def test_the_kinds_sources_and_bands_are_the_fixed_strings() -> None:
    assert [str(kind) for kind in Kind] == ["exact", "estimate", "at_most", "at_least"]
    assert [str(source) for source in Source] == ["search", "table", "symmetry", "threats", "rule"]
    assert [str(band) for band in Band] == ["win", "loss", "draw", "heuristic"]
    assert tuple(Kind) == KINDS and tuple(Source) == SOURCES and tuple(Band) == BANDS
    assert Kind.EXACT == "exact" and Source.THREATS == "threats" and Band.HEURISTIC == "heuristic"


def test_every_rule_is_a_member_and_the_groups_split_the_proofs() -> None:
    assert tuple(Rule) == RULES
    assert set(GAME_RULES) | set(THREAT_RULES) | {Rule.CENTRE_OPENING} == set(RULES)
    assert not set(GAME_RULES) & set(THREAT_RULES)
    assert Rule.WINS_AT_ONCE == "wins at once" and Rule.CENTRE_OPENING == "centre opening"


def test_a_member_is_written_to_json_as_its_string() -> None:
    scored = MoveScore(4, 9, 1, True, (4,), source=Source.RULE, rule=Rule.WINS_AT_ONCE)
    text = json.dumps([scored.kind, scored.band, scored.source, scored.rule])
    assert json.loads(text) == ["exact", "win", "rule", "wins at once"]


def test_strings_are_read_as_members() -> None:
    scored = MoveScore(4, -3, 1, None, (4,), "at_most", 2, "table", "heuristic", "")
    assert scored.kind is Kind.AT_MOST and scored.source is Source.TABLE
    assert scored.band is Band.HEURISTIC and scored.rule is None
    row = IterationInfo(1, 4, 0, "exact", "draw", 9, 0.0, source="search")
    assert (row.kind, row.band, row.source) == (Kind.EXACT, Band.DRAW, Source.SEARCH)
    report = Progress(1, 9, 0.0, 4, 0, (4,), True, "exact", "draw")
    assert (report.kind, report.band) == (Kind.EXACT, Band.DRAW)
    assert Analysis("h1", (), 0, 0.0, 0, True, False).algorithm is Algorithm.H1


def test_an_unknown_word_is_refused_in_one_sentence() -> None:
    with pytest.raises(ValueError, match="unknown band 'maybe'"):
        MoveScore(4, 0, 1, False, band="maybe")
    with pytest.raises(ValueError, match="unknown rule 'luck'"):
        MoveScore(4, 0, 1, False, source="rule", rule="luck")
    with pytest.raises(ValueError, match="unknown kind"):
        IterationInfo(1, 4, 0, "about", "draw", 9, 0.0)
    with pytest.raises(ValueError, match="needs its kind"):
        MoveScore(4, 0, 1)


def test_exact_is_derived_from_the_kind_and_not_stored() -> None:
    assert "exact" not in {field.name for field in fields(MoveScore)}
    bound = MoveScore(4, 9, 12, True)
    assert replace(bound, kind=Kind.AT_LEAST).exact is False
    assert replace(MoveScore(4, 0, 1, False), kind=Kind.EXACT, band=Band.DRAW).exact is True


@pytest.mark.parametrize("algorithm", ["alphabeta", "h1", "h2"])
def test_exact_is_true_exactly_when_the_kind_is_exact_over_every_3x3_position(
    algorithm: str,
) -> None:
    for board in reachable_3x3():
        for scored in analyse_position(board, algorithm).scores:
            assert scored.exact == (scored.kind is Kind.EXACT), (str(board), scored)


def test_the_same_estimate_needs_the_same_number_from_the_same_depth() -> None:
    deep = MoveScore(1, -9, 10, False, (1,), Kind.ESTIMATE, 5)
    shallow = MoveScore(2, -9, 1, False, (2,), Kind.ESTIMATE, 0)
    twin = MoveScore(3, -9, 10, False, (3,), Kind.ESTIMATE, 5)
    bound = MoveScore(4, -9, 10, False, (4,), Kind.AT_MOST, 5)
    assert same_estimate(deep, twin) and equally_good(deep, twin)
    assert not same_estimate(deep, shallow) and not same_estimate(deep, bound)
    assert equally_good(MoveScore(1, 0, 1, True), MoveScore(2, 0, 5, True))
    assert not same_estimate(MoveScore(1, 0, 1, True), MoveScore(2, 0, 5, True))
