from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class ChessConfig(AppConfig):
    name = "games.chess"
    label = "chess"
    verbose_name = pgettext_lazy("the game", "Chess")

    def ready(self) -> None:
        from games import registry
        from games.chess import services  # noqa: F401 - registers its game log
        from games.chess.game_type import CHESS

        registry.register(CHESS)
