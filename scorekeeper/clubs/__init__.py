"""Clubs: who belongs to which club in what role, how one joins, and the guard that keeps a
club's objects to the people allowed to see them (``scoping``).

Below the matches: a match belongs to a club (``matches.Match.club``) and the matches import
this app, never the other way round.
"""
