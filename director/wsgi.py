import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "director.settings")
django_application = get_wsgi_application()

from tournaments.edge_cache import EdgeCache  # noqa: E402 - needs Django set up

# Cookie-less readers of the public pages are answered from the page cache before Django.
application = EdgeCache(django_application)
