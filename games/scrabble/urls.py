from django.urls import path

from games.scrabble import views

app_name = "scrabble"

urlpatterns = [
    path("p/<str:key>/m/<int:match_id>/turns/", views.player_turn, name="player-turn"),
    path("p/<str:key>/turns/<int:turn_id>/accept/", views.player_accept, name="player-accept"),
    path("p/<str:key>/turns/<int:turn_id>/protest/", views.player_protest, name="player-protest"),
    path("p/<str:key>/scrabble-games/<int:game_id>/racks/", views.player_end_racks, name="player-end-racks"),
    path("director/t/<slug:slug>/m/<int:match_id>/turns/", views.director_turn, name="director-turn"),
    path(
        "director/t/<slug:slug>/m/<int:match_id>/turns/undo-last/", views.director_undo_last_turn, name="director-undo"
    ),
    path("director/t/<slug:slug>/turns/<int:turn_id>/accept/", views.director_accept, name="director-accept"),
    path("director/t/<slug:slug>/turns/<int:turn_id>/protest/", views.director_protest, name="director-protest"),
    path("director/t/<slug:slug>/protests/<int:protest_id>/verdict/", views.director_verdict, name="director-verdict"),
    path(
        "director/t/<slug:slug>/scrabble-games/<int:game_id>/racks/",
        views.director_end_racks,
        name="director-end-racks",
    ),
    path("director/t/<slug:slug>/word-list/", views.word_list, name="word-list"),
    path("t/<slug:slug>/m/<int:match_id>/games/<int:number>.gcg", views.gcg_file, name="gcg"),
]
