from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

from tournaments.api import views

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
    path("auth/token/", obtain_auth_token, name="token"),
    path("me/", views.MeView.as_view(), name="me"),
    path("tournaments/", views.TournamentListView.as_view(), name="tournament-list"),
    path("tournaments/<slug:slug>/", views.TournamentDetailView.as_view(), name="tournament"),
    path(
        "tournaments/<slug:slug>/open-registration/",
        views.OpenRegistrationView.as_view(),
        name="open-registration",
    ),
    path("tournaments/<slug:slug>/draw/", views.DrawView.as_view(), name="draw"),
    path("tournaments/<slug:slug>/entries/", views.EntryListView.as_view(), name="entries"),
    path("tournaments/<slug:slug>/entries/import/", views.EntryImportView.as_view(), name="entries-import"),
    path("tournaments/<slug:slug>/seeds/", views.SeedsView.as_view(), name="seeds"),
    path("tournaments/<slug:slug>/bracket/", views.BracketView.as_view(), name="bracket"),
    path("tournaments/<slug:slug>/standings/", views.StandingsView.as_view(), name="standings"),
    path("tournaments/<slug:slug>/audit/", views.AuditLogView.as_view(), name="audit"),
    path("entries/<int:entry_id>/", views.EntryDetailView.as_view(), name="entry"),
    path("entries/<int:entry_id>/withdraw/", views.EntryWithdrawView.as_view(), name="entry-withdraw"),
    path("rounds/<int:round_id>/", views.RoundDetailView.as_view(), name="round"),
    path("matches/<int:match_id>/", views.MatchDetailView.as_view(), name="match"),
    path("matches/<int:match_id>/results/", views.MatchResultsView.as_view(), name="match-results"),
    path("matches/<int:match_id>/walkover/", views.MatchWalkoverView.as_view(), name="match-walkover"),
    path("matches/<int:match_id>/undo/", views.MatchUndoView.as_view(), name="match-undo"),
    path("results/<int:submission_id>/confirm/", views.ResultConfirmView.as_view(), name="result-confirm"),
    path("results/<int:submission_id>/dispute/", views.ResultDisputeView.as_view(), name="result-dispute"),
]
