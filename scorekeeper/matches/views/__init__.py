"""The matches' pages, one module per page family (``scorekeeper/matches/urls.py`` routes to
them): ``matches`` (home, a new match, the score sheet, a hand and its history, the hand form for
a new hand or a correction, void, reopen, scorers), ``club`` (the club's match list), ``live``
(the hand form's live check), ``offline`` (the service worker and the queued hands it sends) and
``confirm`` (the other side's answers, claim codes and **Link my player**).
"""
