"""The club's match list (issue 13), with its filters: read-only, for anyone; read through the
selectors, in a number of queries that does not grow with what it lists. (The leaderboards and
the player profiles are the ratings app's pages: ``ratings/views.py``.)
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render

from .. import selectors
from ..forms.filters import MatchFilterForm

MATCHES_PER_PAGE = 25


def match_list(request):
    """``/matches/``: every match, newest first, filtered by a GET form and paged."""
    form = MatchFilterForm(request.GET or None)
    filters = form.filters() if request.GET else {}
    page = Paginator(selectors.match_list(**filters), MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    context = {"form": form, "page": page, "matches": page.object_list, "filtered": any(filters.values())}
    return render(request, "matches/match_list.html", context)
