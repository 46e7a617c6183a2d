from django.urls import path

from games.chess.api import views

app_name = "chess-api"

urlpatterns = [
    path("matches/<int:match_id>/chess/", views.MatchGamesView.as_view(), name="games"),
    path("matches/<int:match_id>/chess/correct-last/", views.CorrectLastGameView.as_view(), name="correct-last"),
    path("matches/<int:match_id>/chess/undo-last/", views.UndoLastGameView.as_view(), name="undo-last"),
    path("matches/<int:match_id>/chess/colours/", views.ColoursView.as_view(), name="colours"),
    path("matches/<int:match_id>/chess/decide/", views.DecideView.as_view(), name="decide"),
    path("chess-games/<int:game_id>/confirm/", views.ConfirmGameView.as_view(), name="confirm"),
    path("chess-games/<int:game_id>/dispute/", views.DisputeGameView.as_view(), name="dispute"),
    path("chess-games/<int:game_id>/position/", views.FinalPositionView.as_view(), name="position"),
]
