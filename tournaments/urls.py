"""The HTML pages, one URL namespace per audience: public, player, director."""

from django.urls import include, path

from tournaments.views import director, player, printouts, public

public_patterns = (
    [
        path("", public.tournament_list, name="tournament-list"),
        path("t/<slug:slug>/", public.tournament_detail, name="tournament"),
        path("t/<slug:slug>/results/", public.results, name="results"),
        path("t/<slug:slug>/m/<int:match_id>/", public.match_detail, name="match"),
        path("t/<slug:slug>/projector/", public.projector, name="projector"),
        path(
            "t/<slug:slug>/live/<str:fragment>/",
            public.live,
            {"match_id": None},
            name="live",
        ),
        path("t/<slug:slug>/m/<int:match_id>/live/", public.live, {"fragment": "match"}, name="live-match"),
    ],
    "public",
)

player_patterns = (
    [
        path("<str:key>/", player.home, name="home"),
        path("<str:key>/m/<int:match_id>/", player.match_detail, name="match"),
        path("<str:key>/m/<int:match_id>/result/", player.submit_result, name="submit-result"),
        path("<str:key>/results/<int:submission_id>/confirm/", player.confirm_result, name="confirm-result"),
        path("<str:key>/results/<int:submission_id>/dispute/", player.dispute_result, name="dispute-result"),
    ],
    "player",
)

director_patterns = (
    [
        path("", director.home, name="home"),
        path("new/", director.create, name="create"),
        path("t/<slug:slug>/", director.dashboard, name="dashboard"),
        path("t/<slug:slug>/settings/", director.edit_settings, name="settings"),
        path("t/<slug:slug>/open-registration/", director.open_registration, name="open-registration"),
        path("t/<slug:slug>/directors/", director.add_director, name="add-director"),
        path("t/<slug:slug>/entries/", director.entries, name="entries"),
        path("t/<slug:slug>/entries/<int:entry_id>/", director.entry_edit, name="entry"),
        path("t/<slug:slug>/entries/<int:entry_id>/remove/", director.entry_remove, name="entry-remove"),
        path("t/<slug:slug>/entries/<int:entry_id>/withdraw/", director.entry_withdraw, name="entry-withdraw"),
        path("t/<slug:slug>/draw/", director.make_draw, name="draw"),
        path("t/<slug:slug>/draw/cancel/", director.cancel_draw, name="cancel-draw"),
        path("t/<slug:slug>/rounds/", director.rounds, name="rounds"),
        path("t/<slug:slug>/m/<int:match_id>/", director.match_detail, name="match"),
        path("t/<slug:slug>/m/<int:match_id>/result/", director.match_result, name="match-result"),
        path("t/<slug:slug>/m/<int:match_id>/walkover/", director.match_walkover, name="match-walkover"),
        path("t/<slug:slug>/m/<int:match_id>/undo/", director.match_undo, name="match-undo"),
        path("t/<slug:slug>/results/<int:submission_id>/confirm/", director.result_confirm, name="result-confirm"),
        path("t/<slug:slug>/audit/", director.audit_log, name="audit"),
        path("t/<slug:slug>/slips/", director.slips, name="slips"),
        path("t/<slug:slug>/print/", printouts.index, name="print"),
        path("t/<slug:slug>/print/draw/", printouts.draw_sheet, name="print-draw"),
        path("t/<slug:slug>/print/rounds/<int:round_id>/pairings/", printouts.pairings, name="print-pairings"),
        path("t/<slug:slug>/print/rounds/<int:round_id>/result-slips/", printouts.result_slips, name="print-slips"),
    ],
    "director",
)

urlpatterns = [
    path("", include(public_patterns)),
    path("p/", include(player_patterns)),
    path("director/", include(director_patterns)),
]
