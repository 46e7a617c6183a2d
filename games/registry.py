"""Game type -> its rules: the seam through which every game plugs into the knockout.

The tournament code never asks "is this backgammon?". It asks the registry what a
round's settings are, how to describe them, and — for games whose players report a
whole match result — how a reported result decides the match. A game that keeps its
own facts (backgammon games, Scrabble sheets) decides its matches itself and reports
the winner to ``tournaments.services`` through the same services.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clocks.controls import TimeControl
from games import scored
from games.scored import MatchDecision
from games.text import RuleError, gettext_noop

__all__ = [
    "ClockRules",
    "ClockSetup",
    "GameSheet",
    "GameType",
    "LiveState",
    "MatchDecision",
    "RuleError",
    "SettingField",
    "choices",
    "get",
    "register",
]


@dataclass(frozen=True)
class SettingField:
    """A tournament-wide setting of a game: yes/no (backgammon's Crawford rule), a
    whole number within bounds, or one of some choices (Scrabble's word penalty).

    ``per_round``: the setting is a rule of each round (copied into every round's
    settings at the draw, where a round may change it). ``parse``: a text setting
    (chess's time control): the function reads the text, raises ``RuleError`` if it
    cannot be, and returns it normalised.
    """

    name: str
    label: str | Promise
    default: bool | int | str
    help_text: str | Promise = ""
    choices: tuple[tuple[str, str | Promise], ...] = ()
    minimum: int = 0
    maximum: int = 0
    per_round: bool = False
    parse: Callable[[str], str] | None = None

    def clean(self, value: Any) -> bool | int | str:
        if self.parse is not None:
            if not isinstance(value, str):
                raise RuleError(gettext_noop("%(name)s is a text, not %(value).40r."), name=self.name, value=value)
            return self.parse(value)
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise RuleError(
                    gettext_noop("%(name)s is true or false, not %(value).40r."), name=self.name, value=value
                )
            return value
        if isinstance(self.default, int):
            if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) < 6:
                value = int(value.strip())
            if isinstance(value, bool) or not isinstance(value, int) or not self.minimum <= value <= self.maximum:
                raise RuleError(
                    gettext_noop("%(name)s is a whole number from %(min)d to %(max)d, not %(value).40r."),
                    name=self.name,
                    min=self.minimum,
                    max=self.maximum,
                    value=value,
                )
            return value
        allowed = [key for key, _label in self.choices]
        if value not in allowed:
            raise RuleError(
                gettext_noop("%(name)s is one of %(choices)s, not %(value).40r."),
                name=self.name,
                choices=", ".join(allowed),
                value=value,
            )
        return value


@dataclass(frozen=True)
class LiveState:
    """Where a match stands while it is played (shown on the bracket and in the API)."""

    score_a: float
    score_b: float
    text: str  # "5–3 of 7, Crawford game"
    data: dict[str, Any]  # the whole state, for the API


class GameSheet(Protocol):
    """A game that keeps its own score sheet (backgammon games, Scrabble turns).

    Its pages: ``panel_template`` is the sheet at the table (players and directors;
    its context from ``context``), ``public_template`` the read-only sheet on the
    public match page. ``live_states`` gives the state of many matches in a fixed
    number of queries.
    """

    panel_template: str
    public_template: str

    def context(self, match: Any, *, entry: Any = None, director: bool = False) -> dict[str, Any]: ...

    def live_states(self, tournament: Any, matches: list[Any]) -> dict[int, LiveState]: ...


@dataclass(frozen=True)
class ClockSetup:
    """A match's clock as its game wants it: a time control per side (slot a, slot b).

    ``flag_passes_turn``: a flag ends that side's turn and the other side's time runs
    (Scrabble's timeout pass); otherwise the flag is final. ``presses_from_sheet``: the
    score sheet presses the clock (recording a move), not the players' taps.
    ``required``: the game cannot be recorded on the sheet before the clock is started.
    ``game_number``: the game of the match the controls are for (chess: a clock first
    used in a tie-break starts on the tie-break's controls).
    """

    controls: tuple[TimeControl, TimeControl]
    flag_passes_turn: bool = False
    presses_from_sheet: bool = False
    required: bool = False
    game_number: int = 1


class ClockRules(Protocol):
    """How a game uses clocks (``clocks.services`` calls these).

    ``setup`` says whether a match has a clock and which; ``on_flag`` is the
    consequence of a side's flag, applied through the game's own services in the
    clock's transaction (the tournament is locked): Scrabble records a timeout pass,
    backgammon decides the match, chess applies SPEC §5's flag rules.
    """

    def setup(self, match: Any) -> ClockSetup | None: ...

    def on_flag(self, match: Any, side: str) -> None: ...


@dataclass(frozen=True)
class GameType:
    key: str
    label: str | Promise
    # The round setting a director plans per round (best of K, a match length, ...):
    # its key in a round's settings, and how the director's form calls it.
    plan_field: str
    plan_label: str | Promise
    clean_round_settings: Callable[[Mapping[str, Any]], dict[str, Any]]
    describe_round_settings: Callable[[Mapping[str, Any]], str]
    # Reads a reported whole-match result; None if the game decides matches from its
    # own recorded games instead of from reported results.
    decide_match: Callable[[Mapping[str, Any], Mapping[str, Any]], MatchDecision] | None
    # The template that renders the result-entry fields of a match of this game, and
    # how the submitted fields become a result for ``decide_match``.
    result_form_template: str = ""
    result_from_form: Callable[[Mapping[str, str], Mapping[str, Any]], dict[str, Any]] | None = None
    # Tournament-wide settings of the game; each round's settings start from them.
    settings_fields: tuple[SettingField, ...] = ()
    # The game's own score sheet, if it keeps one (None: results are reported whole).
    sheet: GameSheet | None = None
    # Director pages of the game's own (URL name taking the tournament's slug, label),
    # shown in the director's navigation (e.g. Scrabble's word list).
    director_pages: tuple[tuple[str, str | Promise], ...] = ()
    # Its clocks, if its matches may have them (None: no clock).
    clock: ClockRules | None = None

    def clean_settings(self, raw: Any) -> dict[str, Any]:
        """The tournament-wide settings, each declared field with its default if absent."""
        if raw in (None, ""):
            raw = {}
        if not isinstance(raw, Mapping):
            raise RuleError(gettext_noop('Game settings are an object such as {"crawford": true}.'))
        known = {f.name: f for f in self.settings_fields}
        unknown = set(raw) - set(known)
        if unknown:
            raise RuleError(
                gettext_noop("Unknown game setting(s): %(names)s."), names=", ".join(sorted(map(str, unknown)))
            )
        return {name: field.clean(raw.get(name, field.default)) for name, field in known.items()}

    def parse_round_plan(self, text: str) -> list[dict[str, Any]]:
        """``"3, 3, 5"`` -> one settings dict per round, from round 1; the last repeats."""
        plan = []
        for number, item in enumerate((part.strip() for part in str(text).replace(";", ",").split(",")), start=1):
            if not item:
                continue
            try:
                plan.append({self.plan_field: self.clean_round_settings({self.plan_field: item})[self.plan_field]})
            except RuleError as error:
                raise RuleError(gettext_noop("Round %(number)d: %(problem)s"), number=number, problem=error) from None
        return plan

    def format_round_plan(self, plan: list[Mapping[str, Any]]) -> str:
        return ", ".join(str(settings.get(self.plan_field, "")) for settings in plan)

    def round_settings(
        self, plan: list[Mapping[str, Any]], round_number: int, settings: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The settings of round ``round_number`` (from 1): the tournament's game
        settings, then what the plan says for that round."""
        planned = dict(plan[min(round_number, len(plan)) - 1]) if plan else {}
        game_settings = self.clean_settings(settings)
        per_round = {f.name: game_settings[f.name] for f in self.settings_fields if f.per_round}
        return self.clean_round_settings({**per_round, **planned})


_GAME_TYPES: dict[str, GameType] = {}


def register(game_type: GameType) -> GameType:
    existing = _GAME_TYPES.get(game_type.key)
    if existing is not None and existing is not game_type:
        raise ValueError(f"Two game types are registered as {game_type.key!r}.")
    _GAME_TYPES[game_type.key] = game_type
    return game_type


def get(key: str) -> GameType:
    try:
        return _GAME_TYPES[key]
    except KeyError:
        known = ", ".join(sorted(_GAME_TYPES))
        raise RuleError(gettext_noop("Unknown game %(key)r; known games: %(known)s."), key=key, known=known) from None


def choices() -> list[tuple[str, str | Promise]]:
    return [(key, game_type.label) for key, game_type in _GAME_TYPES.items()]


def _describe_best_of(settings: Mapping[str, Any]) -> str:
    count = settings.get("best_of", scored.DEFAULT_BEST_OF)
    # Plural forms only for the languages that need them (Czech: "na 3 hry", "na 5 her").
    n = count if isinstance(count, int) else 0
    return ngettext("best of %(count)s", "best of %(count)s", n) % {"count": count}


SCORED = register(
    GameType(
        key="scored",
        label=_("Scored game (best of K games)"),
        plan_field="best_of",
        plan_label=_("Best of K games, per round"),
        clean_round_settings=scored.clean_round_settings,
        describe_round_settings=_describe_best_of,
        decide_match=scored.decide_match,
        result_form_template="games/scored_result_form.html",
        result_from_form=scored.result_from_form,
    )
)
