from django.urls import path

from games.scrabble.api import views

app_name = "scrabble-api"

urlpatterns = [
    path("matches/<int:match_id>/scrabble/", views.SheetView.as_view(), name="sheet"),
    path("matches/<int:match_id>/turns/", views.TurnsView.as_view(), name="turns"),
    path("matches/<int:match_id>/turns/preview/", views.PreviewView.as_view(), name="preview"),
    path("matches/<int:match_id>/turns/undo-last/", views.UndoLastTurnView.as_view(), name="undo-last"),
    path("scrabble-turns/<int:turn_id>/accept/", views.AcceptView.as_view(), name="accept"),
    path("scrabble-turns/<int:turn_id>/protests/", views.ProtestView.as_view(), name="protest"),
    path("scrabble-protests/<int:protest_id>/verdict/", views.VerdictView.as_view(), name="verdict"),
    path("scrabble-games/<int:game_id>/end-racks/", views.EndRacksView.as_view(), name="end-racks"),
]
