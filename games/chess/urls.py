from django.urls import path

from games.chess import views

app_name = "chess"

urlpatterns = [
    *views.SHEET.urls("chess-games"),
    path(
        "p/<str:key>/chess-games/<int:game_id>/position/",
        views.player_final_position,
        name="player-final-position",
    ),
    path(
        "director/t/<slug:slug>/chess-games/<int:game_id>/position/",
        views.director_final_position,
        name="director-final-position",
    ),
    path(
        "director/t/<slug:slug>/m/<int:match_id>/colours/",
        views.director_draw_colours,
        name="director-draw-colours",
    ),
    path(
        "director/t/<slug:slug>/m/<int:match_id>/decide/",
        views.director_decide_level_match,
        name="director-decide-level-match",
    ),
    path("t/<slug:slug>/m/<int:match_id>/games.pgn", views.match_pgn_file, name="match-pgn"),
    path("t/<slug:slug>/games.pgn", views.tournament_pgn_file, name="tournament-pgn"),
    path("t/<slug:slug>/tournament.trf", views.tournament_trf_file, name="tournament-trf"),
]
