"""The permission matrix's table: for each (route, method), the status each role gets, in the
order of ``ROLES`` (anonymous, outsider, member, scorer, director, admin, staff), on the public
club's objects, then after ``|`` on the private club's.

Reading a row: 302 is a page's redirect to sign in (or, after a write, to the next page); 401 an
API call that must sign in; 403 a role the club's member lacks; 404 what the caller may not
know exists (a private club's objects to outsiders) or what is not there; 400 a body the caller
may send but that the service refuses (the same for all who may); 405 a method the route does
not take.
"""

from __future__ import annotations

from .matrix_world import CLUBS, ROLES


def format_row(row: dict[str, dict[str, int]]) -> str:
    return " | ".join(" ".join(str(row[club][role]) for role in ROLES) for club in CLUBS)


EXPECTED: dict[tuple[str, str], str] = {}
