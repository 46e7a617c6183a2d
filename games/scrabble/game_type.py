"""Scrabble as the tournaments see it: best-of-K matches, the penalty and end rules,
and its score sheet."""

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.registry import GameType, SettingField
from games.scrabble import clock
from games.scrabble import match as match_engine
from games.scrabble.game import EndRule, WordPenalty
from games.scrabble.sheet import ScrabbleSheet


def describe_round_settings(settings: dict[str, Any]) -> str:
    best_of = settings.get("best_of", match_engine.DEFAULT_BEST_OF)
    text = ngettext("best of %(count)d game", "best of %(count)d games", best_of) % {"count": best_of}
    if settings.get("spread_cap"):
        text += ", " + str(_("spread capped at %(cap)d") % {"cap": settings["spread_cap"]})
    return text


SCRABBLE = GameType(
    key="scrabble",
    label=_("Scrabble (Czech rules, best of K games)"),
    plan_field="best_of",
    plan_label=_("Best of K games, per round"),
    clean_round_settings=match_engine.clean_round_settings,
    describe_round_settings=describe_round_settings,
    decide_match=None,
    settings_fields=(
        SettingField(
            "word_penalty",
            _("Penalty for a lost word protest"),
            default=WordPenalty.CROSS.value,
            choices=(
                (WordPenalty.CROSS.value, _("a penalty cross (Czech rules)")),
                (WordPenalty.POINTS_PER_WORD.value, _("points to the protested player, per word")),
                (WordPenalty.POINTS_PER_TURN.value, _("points to the protested player, per turn")),
                (WordPenalty.LOSE_TURN.value, _("the protester loses their next turn")),
                (WordPenalty.NONE.value, _("no penalty")),
            ),
        ),
        SettingField("penalty_points", _("Points of that penalty"), default=5, minimum=1, maximum=50),
        SettingField(
            "scoreless_turns",
            _("Consecutive scoreless turns that end a game"),
            default=4,
            minimum=2,
            maximum=12,
        ),
        SettingField(
            "end_rule",
            _("Racks left at the end"),
            default=EndRule.INTERNATIONAL.value,
            choices=(
                (EndRule.INTERNATIONAL.value, _("each subtracts their rack; who went out adds the others' (Czech)")),
                (EndRule.NORTH_AMERICAN.value, _("who went out adds twice the others' racks; nobody subtracts")),
            ),
        ),
        SettingField(
            "clock",
            _("Move clock"),
            default=clock.NO_CLOCK,
            choices=(
                (clock.NO_CLOCK, _("none")),
                (clock.PER_MOVE, _("a time limit for every move (a timeout is a pass)")),
                (clock.WHOLE_GAME, _("a whole-game allowance per player, like a chess clock")),
            ),
            help_text=_("The server keeps the time: recording a move presses the clock."),
        ),
        SettingField("move_seconds", _("Seconds per move"), default=clock.DEFAULT_MOVE_SECONDS, minimum=1, maximum=600),
        SettingField(
            "game_minutes", _("Minutes per player per game"), default=clock.DEFAULT_GAME_MINUTES, minimum=1, maximum=180
        ),
    ),
    sheet=ScrabbleSheet(),
    clock=clock.ScrabbleClock(),
    director_pages=(("scrabble:word-list", _("Word list")),),
)
