"""Export and import of matches, included under /api/v1/ by ``api/urls.py``."""

from django.urls import path, re_path

from . import exchange

urlpatterns = [
    path("matches/import", exchange.MatchImport.as_view(), name="match-import"),
    path("matches/<int:pk>/export", exchange.MatchExport.as_view(), name="match-export"),
    re_path(
        r"^matches/(?P<pk>[0-9]+)/export\.(?P<format>json|csv)$",
        exchange.MatchExport.as_view(),
        name="match-export-as",
    ),
]
