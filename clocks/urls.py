from django.urls import path

from clocks import views

app_name = "clocks"

urlpatterns = [
    path("t/<slug:slug>/m/<int:match_id>/clock.json", views.clock_json, name="json"),
    path("t/<slug:slug>/clocks.json", views.clocks_json, name="many-json"),
    path("p/<str:key>/m/<int:match_id>/clock/", views.player_clock, name="player"),
    path("p/<str:key>/m/<int:match_id>/clock/<slug:action>/", views.player_action, name="player-action"),
    path("director/t/<slug:slug>/m/<int:match_id>/clock/", views.director_clock, name="director"),
    path("director/t/<slug:slug>/m/<int:match_id>/clock/<slug:action>/", views.director_action, name="director-action"),
]
