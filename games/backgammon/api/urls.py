from django.urls import path

from games.backgammon.api import chouette, views

app_name = "backgammon-api"

urlpatterns = [
    path("matches/<int:match_id>/games/", views.MatchGamesView.as_view(), name="games"),
    path("matches/<int:match_id>/games/correct-last/", views.CorrectLastGameView.as_view(), name="correct-last"),
    path("matches/<int:match_id>/games/undo-last/", views.UndoLastGameView.as_view(), name="undo-last"),
    path("backgammon-games/<int:game_id>/confirm/", views.ConfirmGameView.as_view(), name="confirm"),
    path("backgammon-games/<int:game_id>/dispute/", views.DisputeGameView.as_view(), name="dispute"),
    path("chouette/", chouette.SessionListView.as_view(), name="chouette-list"),
    path("chouette/<int:session_id>/", chouette.SessionDetailView.as_view(), name="chouette"),
    path("chouette/<int:session_id>/line/", chouette.LineView.as_view(), name="chouette-line"),
    path("chouette/<int:session_id>/games/", chouette.GamesView.as_view(), name="chouette-games"),
    path("chouette/<int:session_id>/games/undo-last/", chouette.UndoLastGameView.as_view(), name="chouette-undo"),
    path("chouette/<int:session_id>/players/", chouette.PlayersView.as_view(), name="chouette-players"),
    path(
        "chouette/<int:session_id>/players/<int:player_id>/leave/",
        chouette.LeaveView.as_view(),
        name="chouette-leave",
    ),
    path("chouette/<int:session_id>/close/", chouette.CloseView.as_view(), name="chouette-close"),
]
