"""The chouette pages: the public list and sessions, the table's link, the director's view."""

from django.urls import path

from games.backgammon import chouette_views as views

app_name = "chouette"

urlpatterns = [
    path("chouette/", views.session_list, name="list"),
    path("chouette/new/", views.new_session, name="new"),
    path("chouette/<int:session_id>/", views.session_page, name="session"),
    path("chouette/<int:session_id>/manage/", views.manage, name="manage"),
    path("chouette/table/<str:key>/", views.table, name="table"),
]
