from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class ScrabbleConfig(AppConfig):
    name = "games.scrabble"
    label = "scrabble"
    verbose_name = pgettext_lazy("the game", "Scrabble")

    def ready(self) -> None:
        from games import registry
        from games.scrabble.game_type import SCRABBLE

        registry.register(SCRABBLE)
