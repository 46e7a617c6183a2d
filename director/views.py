"""Views of the site as a whole (not of one app)."""

from django.conf import settings
from django.http import HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET


@require_GET
def choose_language(request):
    """The language switch in the header: ``?language=cs&next=/t/demo-open/``. A GET that
    only sets the reader's language cookie, so public pages need no CSRF token and stay
    the same for every reader (``tournaments.page_cache``)."""
    language = request.GET.get("language", "")
    target = request.GET.get("next", "/")
    hosts = {request.get_host()}
    if not url_has_allowed_host_and_scheme(target, allowed_hosts=hosts, require_https=request.is_secure()):
        target = "/"
    response = HttpResponseRedirect(target)
    if language in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
        )
    return response
