from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class BackgammonConfig(AppConfig):
    name = "games.backgammon"
    label = "backgammon"
    verbose_name = pgettext_lazy("the game", "Backgammon")

    def ready(self) -> None:
        from games import registry
        from games.backgammon import services  # noqa: F401 - registers its game log
        from games.backgammon.game_type import BACKGAMMON

        registry.register(BACKGAMMON)
