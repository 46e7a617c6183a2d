"""A chess knockout mini-match (SPEC §5), derived from its games. Pure functions.

Two players, sides "a" and "b", play a **plan** of stages: the match proper (K games,
``classical``), then, while the match is level, the configured tie-break stages in
order, the last possibly one **Armageddon** game.

- **Colours** alternate game by game through the whole mini-match, tie-break stages
  included: game i (counted from 0 over all stages) has White ``first_white`` (drawn by
  lot before game 1) when i is even, else the other player. Armageddon is the
  exception: its White comes from a separate lot drawn when Armageddon is reached.
- **A stage ends** as soon as one side has more than half of the stage's points (the
  other cannot catch up), or when all its games are played. A side that leads after a
  stage wins the match; if level, the next stage starts. Level after the last stage:
  in Armageddon a draw sends Black through (the game itself stays ½–½); after any
  other stage the match is **undecided** and the director decides.
- **Kinds of tie-break stage** follow FIDE's "60 moves" rule: the time a player has for
  60 moves (the base time, the time of every period reached by move 60, and the
  increments of moves 1 to 60) is ≥ 60 min for ``classical``, more than 10 and under
  60 min for ``rapid``, at most 10 min for ``blitz``. So 600+10 (20 min) is rapid,
  600 (10 min) and 300+5 (10 min) are blitz, 1800+30 (60 min) is classical.

The director writes the tie-breaks as text, stages separated by ``;`` or ``,``, time
controls in the PGN ``TimeControl`` form in seconds::

    2x1500+10; 2x600+10; 2x300+3; armageddon 300+3 v 240+3 @61

``<games>x<control>`` (also ``×`` and spaces: ``2 × 600+10``) is a stage of equal
controls; ``armageddon <White's control> v <Black's control> [@<move>]`` is one game,
White's control at least as long as Black's, increments counted from move ``<move>``
(from move 1 when left out). ``@<move>`` may follow a stage of games too.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from clocks.controls import MINUTE, ClockError, Delay, TimeControl, format_pgn, parse_pgn
from games.chess.results import GameResult, both_flags_result, flag_fall_result
from games.text import RuleError, Text, gettext_noop

Side = Literal["a", "b"]
SIDES: tuple[Side, Side] = ("a", "b")
MAX_GAMES = 40  # in the match proper and in any tie-break stage
MAX_TIEBREAK_STAGES = 10
BLITZ_LIMIT = 10 * MINUTE  # at most: blitz
CLASSICAL_FROM = 60 * MINUTE  # at least: classical
GOOD_STAGE = "2x600+10"
GOOD_ARMAGEDDON = "armageddon 300+3 v 240+3 @61"


class StageKind(StrEnum):
    CLASSICAL = "classical"
    RAPID = "rapid"
    BLITZ = "blitz"
    ARMAGEDDON = "armageddon"


KIND_LABELS = {
    StageKind.CLASSICAL: gettext_noop("classical"),
    StageKind.RAPID: gettext_noop("rapid"),
    StageKind.BLITZ: gettext_noop("blitz"),
    StageKind.ARMAGEDDON: gettext_noop("Armageddon"),
}


def other(side: Side) -> Side:
    return "b" if side == "a" else "a"


# --- Stages and plans ------------------------------------------------------------------------
@dataclass(frozen=True)
class Stage:
    """``games`` games; White plays on ``white_control``, Black on ``black_control``
    (the same control except in Armageddon, which is exactly one game)."""

    kind: StageKind
    games: int
    white_control: TimeControl
    black_control: TimeControl

    def __post_init__(self) -> None:
        if not isinstance(self.kind, StageKind):
            raise RuleError(
                gettext_noop("A stage is classical, rapid, blitz or armageddon, not %(value).40r."), value=self.kind
            )
        if isinstance(self.games, bool) or not isinstance(self.games, int) or not 1 <= self.games <= MAX_GAMES:
            raise RuleError(
                gettext_noop("A stage has 1 to %(max)d games, not %(value).40r."), max=MAX_GAMES, value=self.games
            )
        if not isinstance(self.white_control, TimeControl) or not isinstance(self.black_control, TimeControl):
            raise RuleError(gettext_noop("A stage needs a time control for White and for Black."))
        if self.kind is StageKind.ARMAGEDDON:
            if self.games != 1:
                raise RuleError(gettext_noop("Armageddon is exactly one game."))
        elif self.white_control != self.black_control:
            raise RuleError(gettext_noop("Only Armageddon gives White and Black different time controls."))

    def control(self, colour: Literal["white", "black"]) -> TimeControl:
        return self.white_control if colour == "white" else self.black_control


@dataclass(frozen=True)
class Plan:
    """``stages[0]`` is the match proper; the rest are the tie-break stages, in order."""

    stages: tuple[Stage, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.stages, tuple) or not self.stages or not all(isinstance(s, Stage) for s in self.stages):
            raise RuleError(gettext_noop("A match plan is a tuple of stages, the match proper first."))
        if self.stages[0].kind is StageKind.ARMAGEDDON:
            raise RuleError(gettext_noop("A match starts with its games proper, not with Armageddon."))
        if any(stage.kind is StageKind.ARMAGEDDON for stage in self.stages[:-1]):
            raise RuleError(gettext_noop("Armageddon can only be the last stage."))

    @property
    def games(self) -> int:
        """K, the games of the match proper."""
        return self.stages[0].games

    @property
    def tiebreaks(self) -> tuple[Stage, ...]:
        return self.stages[1:]

    @property
    def has_armageddon(self) -> bool:
        return self.stages[-1].kind is StageKind.ARMAGEDDON


def make_plan(games: int, control: TimeControl, tiebreaks: tuple[Stage, ...] = ()) -> Plan:
    """The plan of a mini-match: ``games`` (1 to 40) classical games on ``control``,
    then the tie-break stages."""
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise RuleError(gettext_noop("A match has 1 to %(max)d games, not %(value).40r."), max=MAX_GAMES, value=games)
    if not isinstance(control, TimeControl):
        raise RuleError(gettext_noop("The match needs a time control, such as 5400+30."))
    if isinstance(tiebreaks, str) or not isinstance(tiebreaks, Sequence):
        raise RuleError(gettext_noop("The tie-breaks are a sequence of stages (read them with parse_tiebreaks)."))
    return Plan((Stage(StageKind.CLASSICAL, games, control, control), *tiebreaks))


def sixty_move_time(control: TimeControl) -> int:
    """The time (ms) a player has for 60 moves: FIDE's measure of a game's pace."""
    if control.per_move:
        return 60 * control.per_move
    added = sum(control.time_added_after(move) for move in range(1, 60))
    increments = sum(control.increment_after(move) for move in range(1, 61))
    return control.initial + added + increments


def classify_control(control: TimeControl) -> StageKind:
    """Classical, rapid or blitz by the time for 60 moves (see the module's docstring)."""
    total = sixty_move_time(control)
    if total >= CLASSICAL_FROM:
        return StageKind.CLASSICAL
    if total > BLITZ_LIMIT:
        return StageKind.RAPID
    return StageKind.BLITZ


# --- The director's tie-break text ----------------------------------------------------------
_GAMES_STAGE = re.compile(r"(\d{1,3})\s*[x×]\s*([^\s@]+)\s*(?:@\s*(\d{1,3}))?", re.IGNORECASE)
_ARMAGEDDON_STAGE = re.compile(r"armageddon\s+([^\s@]+)\s+(?:v|vs)\.?\s+([^\s@]+)\s*(?:@\s*(\d{1,3}))?", re.IGNORECASE)
_SEPARATORS = re.compile(r"[;,]")


def parse_tiebreaks(text: str) -> tuple[Stage, ...]:
    """The director's tie-break stages (module docstring); empty text: none."""
    if not isinstance(text, str):
        raise RuleError(
            gettext_noop("The tie-breaks are text such as %(example)s."), example=f"{GOOD_STAGE}; {GOOD_ARMAGEDDON}"
        )
    parts = [part.strip() for part in _SEPARATORS.split(text)]
    parts = [part for part in parts if part]
    if len(parts) > MAX_TIEBREAK_STAGES:
        raise RuleError(
            gettext_noop("At most %(max)d tie-break stages, not %(count)d."), max=MAX_TIEBREAK_STAGES, count=len(parts)
        )
    stages = tuple(_parse_stage(part) for part in parts)
    for part, stage in zip(parts[:-1], stages[:-1], strict=True):
        if stage.kind is StageKind.ARMAGEDDON:
            raise RuleError(
                gettext_noop("%(stage)r: Armageddon can only be the last stage, as in %(example)s."),
                stage=part[:60],
                example=f"{GOOD_STAGE}; {GOOD_ARMAGEDDON}",
            )
    return stages


def _parse_stage(part: str) -> Stage:
    stage = part[:60]
    found = _GAMES_STAGE.fullmatch(part)
    if found:
        count, control_text, move = found.groups()
        games = int(count)
        if not 1 <= games <= MAX_GAMES:
            raise RuleError(
                gettext_noop("%(stage)r: a stage has 1 to %(max)d games, as in %(example)s."),
                stage=stage,
                max=MAX_GAMES,
                example=GOOD_STAGE,
            )
        (control,) = _increments_from(move, (_control(control_text, stage, GOOD_STAGE),), stage)
        return Stage(classify_control(control), games, control, control)
    found = _ARMAGEDDON_STAGE.fullmatch(part)
    if found:
        white_text, black_text, move = found.groups()
        white, black = _increments_from(
            move,
            (_control(white_text, stage, GOOD_ARMAGEDDON), _control(black_text, stage, GOOD_ARMAGEDDON)),
            stage,
        )
        if white.initial < black.initial:
            raise RuleError(
                gettext_noop(
                    "%(stage)r: in Armageddon White has at least as much time as Black, who has draw odds,"
                    " as in %(example)s."
                ),
                stage=stage,
                example=GOOD_ARMAGEDDON,
            )
        return Stage(StageKind.ARMAGEDDON, 1, white, black)
    raise RuleError(
        gettext_noop(
            "%(stage)r is not a tie-break stage: write the games × a PGN time control in seconds, such as"
            " %(example)s, or an Armageddon game such as %(armageddon)s."
        ),
        stage=stage,
        example=GOOD_STAGE,
        armageddon=GOOD_ARMAGEDDON,
    )


def _control(text: str, stage: str, example: str) -> TimeControl:
    try:
        control = parse_pgn(text)
    except ClockError as error:
        raise RuleError(
            gettext_noop("%(stage)r: %(problem)s Write it in seconds, as in %(example)s."),
            stage=stage,
            problem=error,
            example=example,
        ) from None
    if control is None:
        raise RuleError(
            gettext_noop("%(stage)r needs a time control in seconds, as in %(example)s."), stage=stage, example=example
        )
    return control


def _increments_from(move: str | None, controls: tuple[TimeControl, ...], stage: str) -> tuple[TimeControl, ...]:
    """The controls with their increments counted from ``@move``."""
    if move is None:
        return controls
    if not any(period.increment for control in controls for period in control.periods):
        raise RuleError(
            gettext_noop(
                "%(stage)r: @%(move)s is the move the increment starts from, but there is no increment,"
                " as in %(example)s."
            ),
            stage=stage,
            move=move,
            example=GOOD_ARMAGEDDON,
        )
    try:
        return tuple(dataclasses.replace(control, increment_from_move=int(move)) for control in controls)
    except ClockError as error:
        raise RuleError(gettext_noop("%(stage)r: %(problem)s"), stage=stage, problem=error) from None


def format_tiebreaks(stages: Sequence[Stage]) -> str:
    """The text ``parse_tiebreaks`` reads back to the same stages: "2x600+10; armageddon 300+3 v 240+3 @61"."""
    return "; ".join(_format_stage(stage) for stage in stages)


def _format_stage(stage: Stage) -> str:
    if stage.kind is StageKind.ARMAGEDDON:
        if stage.white_control.increment_from_move != stage.black_control.increment_from_move:
            raise RuleError(gettext_noop("Armageddon's increments start from the same move for both players."))
        text = f"armageddon {_format_control(stage.white_control)} v {_format_control(stage.black_control)}"
    else:
        text = f"{stage.games}x{_format_control(stage.white_control)}"
    move = stage.white_control.increment_from_move
    return f"{text} @{move}" if move != 1 else text


def _format_control(control: TimeControl) -> str:
    text = None
    if control.delay_kind is Delay.NONE:
        text = format_pgn(dataclasses.replace(control, increment_from_move=1))
    if text is None:
        raise RuleError(
            gettext_noop("A tie-break control is written in the PGN form in whole seconds, with no delay."),
        )
    return text


# --- Games and the state of the match ---------------------------------------------------------
@dataclass(frozen=True)
class MatchGame:
    """One game as recorded: who had White, and the result."""

    white: Side
    result: GameResult

    def __post_init__(self) -> None:
        if self.white not in SIDES:
            raise RuleError(gettext_noop('White is side "a" or "b", not %(value).40r.'), value=self.white)
        if not isinstance(self.result, GameResult):
            raise RuleError(gettext_noop("A match game needs its result, such as 1-0 by resignation."))

    @property
    def black(self) -> Side:
        return other(self.white)

    @property
    def points(self) -> tuple[float, float]:
        """What the game gave sides a and b."""
        white = self.result.points("white")
        return (white, 1.0 - white) if self.white == "a" else (1.0 - white, white)


@dataclass(frozen=True)
class GameLine:
    """One played game in the match's history."""

    number: int  # from 1, over all stages
    stage: int  # index into the plan's stages
    number_in_stage: int  # from 1
    kind: StageKind
    white: Side
    result: GameResult
    score_after: tuple[float, float]  # the whole match, sides a and b

    @property
    def black(self) -> Side:
        return other(self.white)

    @property
    def points(self) -> tuple[float, float]:
        return MatchGame(self.white, self.result).points


@dataclass(frozen=True)
class NextGame:
    """The game to be played next, and the control each side plays it on."""

    number: int
    stage: int
    kind: StageKind
    number_in_stage: int
    white: Side
    control_a: TimeControl
    control_b: TimeControl

    @property
    def black(self) -> Side:
        return other(self.white)

    def control_of(self, side: Side) -> TimeControl:
        return self.control_a if side == "a" else self.control_b


@dataclass(frozen=True)
class MiniMatchState:
    plan: Plan
    first_white: Side
    armageddon_white: Side | None = None
    games: tuple[GameLine, ...] = field(default_factory=tuple)
    score_a: float = 0.0
    score_b: float = 0.0
    stage_scores: tuple[tuple[float, float], ...] = ()  # one per stage with a game played
    stage_index: int = 0  # the next game's stage (the last game's when no game follows)
    next_game: NextGame | None = None  # None when over, undecided, or waiting for the Armageddon lot
    winner: Side | None = None
    decided_in: StageKind | None = None
    armageddon_draw_odds_used: bool = False  # Armageddon drawn: Black went through
    undecided: bool = False  # level after the last stage, not Armageddon: the director decides
    needs_armageddon_lot: bool = False  # Armageddon is next and its White is not drawn yet

    @property
    def over(self) -> bool:
        """The match has a winner (an undecided match is not over: the director decides)."""
        return self.winner is not None

    @property
    def games_played(self) -> int:
        return len(self.games)

    @property
    def stage(self) -> Stage:
        return self.plan.stages[self.stage_index]

    @property
    def summary(self) -> str:
        return str(describe(self))

    def score_of(self, side: Side) -> float:
        return self.score_a if side == "a" else self.score_b


def start(plan: Plan, first_white: Side, armageddon_white: Side | None = None) -> MiniMatchState:
    """A mini-match before its first game. ``armageddon_white`` may be given at once
    (it only counts once Armageddon is reached) or later (``record_armageddon_lot``)."""
    if not isinstance(plan, Plan):
        raise RuleError(gettext_noop("A mini-match needs its plan (make_plan)."))
    if first_white not in SIDES:
        raise RuleError(
            gettext_noop('White in game 1 is side "a" or "b", drawn by lot, not %(value).40r.'), value=first_white
        )
    if armageddon_white is not None and armageddon_white not in SIDES:
        raise RuleError(
            gettext_noop('White in Armageddon is side "a" or "b", drawn by lot, not %(value).40r.'),
            value=armageddon_white,
        )
    return _schedule(MiniMatchState(plan=plan, first_white=first_white, armageddon_white=armageddon_white))


def record_armageddon_lot(state: MiniMatchState, white: Side) -> MiniMatchState:
    """The state once the lot for White in Armageddon is drawn (when Armageddon is next)."""
    if white not in SIDES:
        raise RuleError(
            gettext_noop('White in Armageddon is side "a" or "b", drawn by lot, not %(value).40r.'), value=white
        )
    if not state.plan.has_armageddon:
        raise RuleError(gettext_noop("This match has no Armageddon game: there is no lot to draw."))
    if state.armageddon_white == white:
        return state
    if not state.needs_armageddon_lot:
        if state.armageddon_white is not None:
            raise RuleError(
                gettext_noop("The Armageddon lot is already drawn: %(side)s has White."), side=state.armageddon_white
            )
        raise RuleError(gettext_noop("The Armageddon lot is drawn when the match reaches Armageddon."))
    return _schedule(dataclasses.replace(state, armageddon_white=white))


def add_game(state: MiniMatchState, game: MatchGame) -> MiniMatchState:
    """The match after one more game; refuses a game that breaks a rule."""
    number = state.games_played + 1
    if not isinstance(game, MatchGame):
        raise RuleError(gettext_noop("Game %(number)d: a match game is White's side and the result."), number=number)
    if state.over:
        raise RuleError(
            gettext_noop("The match is over (%(score)s, %(side)s won): no game can be added."),
            score=describe(state),
            side=state.winner,
        )
    if state.undecided:
        raise RuleError(
            gettext_noop(
                "The match is level after every stage (%(score)s): the director decides; no game can be added."
            ),
            score=describe(state),
        )
    if state.needs_armageddon_lot:
        raise RuleError(
            gettext_noop("Game %(number)d is the Armageddon game: draw lots for White first."), number=number
        )
    scheduled = state.next_game
    assert scheduled is not None
    if game.white != scheduled.white:
        raise RuleError(
            gettext_noop("Game %(number)d: %(side)s is scheduled to play White."), number=number, side=scheduled.white
        )
    stage = state.plan.stages[scheduled.stage]
    gained = game.points
    score = (state.score_a + gained[0], state.score_b + gained[1])
    if state.stage_scores and len(state.stage_scores) == scheduled.stage + 1:
        before = state.stage_scores[-1]
        stage_scores = (*state.stage_scores[:-1], (before[0] + gained[0], before[1] + gained[1]))
    else:
        stage_scores = (*state.stage_scores, gained)
    line = GameLine(
        number=number,
        stage=scheduled.stage,
        number_in_stage=scheduled.number_in_stage,
        kind=scheduled.kind,
        white=game.white,
        result=game.result,
        score_after=score,
    )
    new = dataclasses.replace(
        state,
        games=(*state.games, line),
        score_a=score[0],
        score_b=score[1],
        stage_scores=stage_scores,
        next_game=None,
        needs_armageddon_lot=False,
    )
    a, b = stage_scores[-1]
    half = stage.games / 2
    if not (a > half or b > half or scheduled.number_in_stage == stage.games):
        return _schedule(new)  # the stage goes on
    if a != b:
        return dataclasses.replace(new, winner="a" if a > b else "b", decided_in=stage.kind)
    if stage.kind is StageKind.ARMAGEDDON:
        return dataclasses.replace(
            new, winner=game.black, decided_in=StageKind.ARMAGEDDON, armageddon_draw_odds_used=True
        )
    if scheduled.stage + 1 < len(state.plan.stages):
        return _schedule(dataclasses.replace(new, stage_index=scheduled.stage + 1))
    return dataclasses.replace(new, undecided=True)


def replay(
    plan: Plan, first_white: Side, games: Sequence[MatchGame], armageddon_white: Side | None = None
) -> MiniMatchState:
    """The match state after these games, each checked in turn."""
    state = start(plan, first_white, armageddon_white)
    for game in games:
        state = add_game(state, game)
    return state


def _schedule(state: MiniMatchState) -> MiniMatchState:
    """Fill in the next game of a match that goes on at ``state.stage_index``."""
    stage = state.plan.stages[state.stage_index]
    played_in_stage = sum(1 for line in state.games if line.stage == state.stage_index)
    if stage.kind is StageKind.ARMAGEDDON:
        white = state.armageddon_white
        if white is None:
            return dataclasses.replace(state, next_game=None, needs_armageddon_lot=True)
    else:
        white = state.first_white if state.games_played % 2 == 0 else other(state.first_white)
    controls = (
        (stage.white_control, stage.black_control) if white == "a" else (stage.black_control, stage.white_control)
    )
    following = NextGame(
        number=state.games_played + 1,
        stage=state.stage_index,
        kind=stage.kind,
        number_in_stage=played_in_stage + 1,
        white=white,
        control_a=controls[0],
        control_b=controls[1],
    )
    return dataclasses.replace(state, next_game=following, needs_armageddon_lot=False)


# --- Text ---------------------------------------------------------------------------------------
def half_text(points: float) -> str:
    """1.5 -> "1½", 0.5 -> "½", 2.0 -> "2"."""
    whole = int(points)
    half = "½" if points - whole else ""
    return half if half and not whole else f"{whole}{half}"


def describe(state: MiniMatchState) -> Text:
    """The scores stage by stage, side a's first, translatable:
    "1–1, rapid 1–1, Armageddon ½–½ (Black through)"."""
    if not state.stage_scores:
        return Text(gettext_noop("%(a)s–%(b)s"), a="0", b="0")
    text: Text | None = None
    for index, (a, b) in enumerate(state.stage_scores):
        kind = state.plan.stages[index].kind
        if index == 0:
            part = Text(gettext_noop("%(a)s–%(b)s"), a=half_text(a), b=half_text(b))
        elif kind is StageKind.ARMAGEDDON and state.armageddon_draw_odds_used:
            part = Text(
                gettext_noop("%(kind)s %(a)s–%(b)s (Black through)"),
                kind=Text(KIND_LABELS[kind]),
                a=half_text(a),
                b=half_text(b),
            )
        else:
            part = Text(
                gettext_noop("%(kind)s %(a)s–%(b)s"), kind=Text(KIND_LABELS[kind]), a=half_text(a), b=half_text(b)
            )
        text = part if text is None else Text(gettext_noop("%(before)s, %(after)s"), before=text, after=part)
    assert text is not None
    return text


__all__ = [
    "GOOD_ARMAGEDDON",
    "GOOD_STAGE",
    "MAX_GAMES",
    "GameLine",
    "MatchGame",
    "MiniMatchState",
    "NextGame",
    "Plan",
    "Side",
    "Stage",
    "StageKind",
    "add_game",
    "both_flags_result",
    "classify_control",
    "describe",
    "flag_fall_result",
    "format_tiebreaks",
    "half_text",
    "make_plan",
    "other",
    "parse_tiebreaks",
    "record_armageddon_lot",
    "replay",
    "sixty_move_time",
    "start",
]
