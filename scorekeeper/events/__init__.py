"""A club's events: club nights, round robins, Swiss events and leagues (issue 34).

``pairing``: who meets whom in each round; ``standings``: the ranking with the director's
tie-breaks. Plain Python without Django, for the events' services to call.
"""
