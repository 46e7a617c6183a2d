from django.urls import path

from clocks.api import views

app_name = "clocks-api"

urlpatterns = [
    path("matches/<int:match_id>/clock/", views.ClockView.as_view(), name="clock"),
    path("matches/<int:match_id>/clock/start/", views.StartView.as_view(), name="start"),
    path("matches/<int:match_id>/clock/press/", views.PressView.as_view(), name="press"),
    path("matches/<int:match_id>/clock/pause/", views.PauseView.as_view(), name="pause"),
    path("matches/<int:match_id>/clock/resume/", views.ResumeView.as_view(), name="resume"),
    path("matches/<int:match_id>/clock/adjust/", views.AdjustView.as_view(), name="adjust"),
]
