from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from director.views import choose_language

urlpatterns = [
    path("favicon.ico", RedirectView.as_view(url=static("img/favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("language/", choose_language, name="choose-language"),
    path("api/", include("tournaments.api.urls")),
    path("api/", include("games.backgammon.api.urls")),
    path("api/", include("games.scrabble.api.urls")),
    path("api/", include("games.chess.api.urls")),
    path("api/", include("clocks.api.urls")),
    path("", include("games.backgammon.urls")),
    path("", include("games.backgammon.chouette_urls")),
    path("", include("games.scrabble.urls")),
    path("", include("games.chess.urls")),
    path("", include("clocks.urls")),
    path("", include("tournaments.urls")),
]
