from django.urls import path

from games.backgammon import views

app_name = "backgammon"

urlpatterns = [
    *views.SHEET.urls("games"),
    path("t/<slug:slug>/m/<int:match_id>/match.mat", views.match_record_file, name="match-record"),
]
