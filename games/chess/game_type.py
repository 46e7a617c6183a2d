"""Chess as the tournaments see it: mini-matches of K games per round with tie-break
stages, the table clock, and its score sheet."""

from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from clocks.controls import parse_pgn
from games.chess import minimatch, plan
from games.chess.clock import ChessClock
from games.chess.sheet import ChessSheet, short_control, stage_short
from games.registry import GameType, SettingField


def describe_round_settings(settings: dict[str, Any]) -> str:
    clean = plan.clean_round_settings(settings)
    control = parse_pgn(clean["time_control"])
    games = clean["games"]
    text = ngettext("%(count)d game", "%(count)d games", games) % {"count": games}
    text += f" {short_control(control)}"
    stages = minimatch.parse_tiebreaks(clean["tiebreaks"])
    if stages:
        text += "; " + gettext("tie-breaks %(stages)s") % {"stages": ", ".join(stage_short(s) for s in stages)}
    return text


CHESS = GameType(
    key="chess",
    label=_("Chess (mini-matches with tie-breaks)"),
    plan_field="games",
    plan_label=_("Games per match before tie-breaks, per round"),
    clean_round_settings=plan.clean_round_settings,
    describe_round_settings=describe_round_settings,
    decide_match=None,
    settings_fields=(
        SettingField(
            "time_control",
            _("Time control of the match games"),
            default=plan.DEFAULT_TIME_CONTROL,
            help_text=_(
                "PGN form in seconds: 5400+30 is 90 min + 30 s a move; 40/5400:1800+30 adds 30 min at move 40."
            ),
            per_round=True,
            parse=plan.parse_time_control,
        ),
        SettingField(
            "tiebreaks",
            _("Tie-break stages if the match is level"),
            default=plan.DEFAULT_TIEBREAKS,
            help_text=_(
                "Stages separated by ;, each games x time control, the last may be Armageddon: "
                "2x1500+10; 2x600+10; 2x300+3; armageddon 300+3 v 240+3 @61 (White's time v Black's, "
                "increment from move 61; a draw sends Black through). - for none."
            ),
            per_round=True,
            parse=plan.parse_tiebreaks,
        ),
        SettingField(
            "clock",
            _("Table clock"),
            default=plan.DEFAULT_CLOCK,
            choices=(
                ("none", _("none")),
                ("allowed", _("allowed (the players may start it)")),
                ("required", _("required (games are recorded only once it runs)")),
            ),
            help_text=_("The server keeps the time; a flag fall is recorded the moment it happens."),
            per_round=True,
        ),
    ),
    sheet=ChessSheet(),
    clock=ChessClock(),
)
