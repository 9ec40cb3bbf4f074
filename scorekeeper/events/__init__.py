"""A club's events: club nights, round robins, Swiss events, Swiss events at tables, leagues.

``pairing`` (who meets whom in a round) and ``standings`` (the ranking with the director's
tie-breaks) are plain Python without Django; ``models``, ``services`` and ``selectors`` are the
app above the matches (each table a match) and beneath the ratings (``ratings_source``); the
pages are ``views``. docs/events.md says how an event runs.
"""
