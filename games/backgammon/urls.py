from django.urls import path

from games.backgammon import views

app_name = "backgammon"

urlpatterns = [
    path("p/<str:key>/m/<int:match_id>/games/", views.player_add_game, name="player-add-game"),
    path("p/<str:key>/games/<int:game_id>/confirm/", views.player_confirm_game, name="player-confirm-game"),
    path("p/<str:key>/games/<int:game_id>/dispute/", views.player_dispute_game, name="player-dispute-game"),
    path("director/t/<slug:slug>/m/<int:match_id>/games/", views.director_add_game, name="director-add-game"),
    path(
        "director/t/<slug:slug>/m/<int:match_id>/games/correct-last/",
        views.director_correct_last_game,
        name="director-correct-last-game",
    ),
    path(
        "director/t/<slug:slug>/m/<int:match_id>/games/undo-last/",
        views.director_undo_last_game,
        name="director-undo-last-game",
    ),
    path(
        "director/t/<slug:slug>/games/<int:game_id>/confirm/", views.director_confirm_game, name="director-confirm-game"
    ),
    path("t/<slug:slug>/m/<int:match_id>/match.mat", views.match_record_file, name="match-record"),
]
