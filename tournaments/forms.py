"""HTML forms: they read the fields' shapes; the services check the rules and their
errors are shown on the form (``call_service``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import registry
from tournaments.errors import DomainError
from tournaments.models import Tournament


def call_service(form: forms.Form, service: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a service; on a ``DomainError`` put its message on the form and return None."""
    try:
        return service(*args, **kwargs)
    except DomainError as error:
        field = error.field if error.field in form.fields else None
        form.add_error(field, error.message)
        return None


class TournamentForm(forms.Form):
    name = forms.CharField(label=pgettext_lazy("tournament", "Name"), max_length=200)
    game_type = forms.ChoiceField(label=_("Game"), choices=registry.choices)
    starts_on = forms.DateField(label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    seeding_method = forms.ChoiceField(label=_("Seeding"), choices=Tournament.Seeding.choices)
    seeded_count = forms.IntegerField(
        label=_("Seed only the top"),
        required=False,
        min_value=0,
        help_text=_("Leave empty to seed everybody; the other players are drawn by lot."),
    )
    third_place_match = forms.BooleanField(label=_("Match for third place"), required=False)
    consolation = forms.BooleanField(
        label=_("Consolation flight for players who lose their first match"), required=False
    )
    confirmation_minutes = forms.DecimalField(
        label=_("Confirm players' results automatically after (minutes)"),
        min_value=0,
        max_digits=7,
        decimal_places=2,
        initial=10,
        help_text=_("Unless the opponent disputes them. 0 switches automatic confirmation off."),
    )
    round_plan = forms.CharField(
        label=_("Best of K games, per round"),
        required=False,
        help_text=_("From round 1, separated by commas, e.g. 3, 3, 5; the last value repeats."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each game's own settings (e.g. backgammon's Crawford rule); only the chosen
        # game's are kept.
        for key, label in registry.choices():
            for setting in registry.get(key).settings_fields:
                options = {
                    "label": f"{label}: {setting.label}",
                    "initial": setting.default,
                    "help_text": setting.help_text,
                }
                if isinstance(setting.default, bool):
                    field = forms.BooleanField(required=False, **options)
                elif isinstance(setting.default, int):
                    field = forms.IntegerField(
                        min_value=setting.minimum, max_value=setting.maximum, required=False, **options
                    )
                elif setting.choices:
                    field = forms.ChoiceField(choices=setting.choices, required=False, **options)
                else:
                    field = forms.CharField(max_length=200, required=False, **options)
                self.fields[self.setting_name(key, setting.name)] = field

    @staticmethod
    def setting_name(game_key: str, name: str) -> str:
        return f"setting__{game_key}__{name}"

    @classmethod
    def for_tournament(cls, tournament: Tournament, data=None) -> TournamentForm:
        initial = {
            "name": tournament.name,
            "game_type": tournament.game_type,
            "starts_on": tournament.starts_on,
            "venue": tournament.venue,
            "seeding_method": tournament.seeding_method,
            "seeded_count": tournament.seeded_count,
            "third_place_match": tournament.third_place_match,
            "consolation": tournament.consolation,
            "confirmation_minutes": round(tournament.confirmation_timeout_seconds / 60, 2),
            "round_plan": tournament.game.format_round_plan(tournament.round_plan),
        }
        form = cls(data=data, initial=initial)
        form.fields["round_plan"].label = tournament.game.plan_label
        if tournament.is_drawn:
            for name in (
                "game_type",
                "seeding_method",
                "seeded_count",
                "third_place_match",
                "consolation",
                "round_plan",
            ):
                form.fields[name].disabled = True
        return form

    def service_fields(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        minutes = data.pop("confirmation_minutes")
        data["confirmation_timeout_seconds"] = int(round(float(minutes) * 60))
        game_key = data.get("game_type")
        settings = {}
        for name in [n for n in data if n.startswith("setting__")]:
            value = data.pop(name)
            _, key, setting = name.split("__", 2)
            if key == game_key and not self.fields[name].disabled and value not in (None, ""):
                settings[setting] = value  # an empty field keeps the game's default
        for name, field in self.fields.items():
            if field.disabled:
                data.pop(name, None)
        if game_key is not None and not self.fields["game_type"].disabled:
            data["settings"] = settings
        return data


class EntryForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    rating = forms.IntegerField(label=_("Rating"), required=False)
    club = forms.CharField(label=_("Club"), max_length=200, required=False)
    country = forms.CharField(label=_("Country"), max_length=10, required=False, help_text=_("CZ, SK, …"))
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=1)


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        required=False,
        help_text=_(
            "One player per line with a header row: name, rating, club, country, seed "
            "(only name is required; commas or semicolons)."
        ),
    )
    text = forms.CharField(
        label=_("…or paste the lines here"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )

    def csv_text(self) -> str:
        upload = self.cleaned_data.get("file")
        if upload is not None:
            try:
                return upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise DomainError(_("The file is not UTF-8 text; save it as 'CSV UTF-8'."), field="file") from None
        return self.cleaned_data.get("text") or ""


class DrawForm(forms.Form):
    random_seed = forms.IntegerField(
        label=_("Random seed"),
        required=False,
        min_value=0,
        help_text=_("Leave empty for a fresh draw; enter a recorded seed to repeat a draw."),
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), required=False, max_length=1000)


class WalkoverForm(forms.Form):
    winner = forms.IntegerField(widget=forms.HiddenInput)
    note = forms.CharField(label=_("Note"), required=False, max_length=1000)


class DirectorForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)


class RoundSettingsForm(forms.Form):
    value = forms.CharField(label=_("Setting"), max_length=50)
