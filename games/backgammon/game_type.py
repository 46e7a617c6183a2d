"""Backgammon as the tournaments see it: its round settings and its score sheet."""

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.backgammon import match as engine
from games.backgammon.clock import BackgammonClock
from games.backgammon.sheet import BackgammonSheet
from games.registry import GameType, SettingField


def describe_round_settings(settings: dict[str, Any]) -> str:
    length = settings.get("match_length", engine.DEFAULT_MATCH_LENGTH)
    text = ngettext("to %(count)d point", "to %(count)d points", length) % {"count": length}
    if not settings.get("crawford", True):
        text += ", " + str(_("no Crawford rule"))
    if settings.get("clock", "none") != "none":
        minutes = settings.get("clock_minutes_per_point", 2) * length
        text += ", " + str(
            _("match clock %(minutes)d min + %(delay)d s delay")
            % {"minutes": minutes, "delay": settings.get("clock_delay", 12)}
        )
    return text


BACKGAMMON = GameType(
    key="backgammon",
    label=_("Backgammon (matches to N points)"),
    plan_field="match_length",
    plan_label=_("Match length in points, per round"),
    clean_round_settings=engine.clean_round_settings,
    describe_round_settings=describe_round_settings,
    decide_match=None,
    settings_fields=(
        SettingField(
            "crawford",
            _("Crawford rule"),
            default=True,
            help_text=_("No doubling in the first game after a player reaches one point from winning."),
            per_round=True,
        ),
        SettingField(
            "clock",
            _("Match clock"),
            default="none",
            choices=(
                ("none", _("none")),
                ("allowed", _("allowed (the players may start it)")),
                ("required", _("required (games are recorded only once it runs)")),
            ),
            help_text=_("A reserve for the whole match; running out of it loses the match."),
            per_round=True,
        ),
        SettingField(
            "clock_minutes_per_point",
            _("Clock reserve: minutes per match point"),
            default=2,
            minimum=1,
            maximum=10,
            per_round=True,
        ),
        SettingField(
            "clock_delay", _("Clock delay per move (seconds)"), default=12, minimum=0, maximum=60, per_round=True
        ),
    ),
    sheet=BackgammonSheet(),
    clock=BackgammonClock(),
)
