"""The reads of the ratings, by subject, shared by the API (``api/ratings.py``,
``api/people.py``) and the pages (``ratings/views*.py``, the template tags): each returns a
bounded number of queries whatever the number of players or matches shown, and none imports
the write side (``ratings.services``); the model behind their numbers is ``ratings.raters``'.

- ``boards``: the leaderboards (a pool's board and its pages, ranks, every board at a glance),
  the recompute jobs;
- ``player_history``: a player's ratings, history and overall cul rating; the explained rating
  changes of a profile's matches and of a score sheet (``changes``: the explanation itself);
- ``predictions``: ``/predict`` and the new-match page's chances;
- ``head_to_head``: two players' meetings, records and chances, a player's opponents and rivals;
- ``seasons``: a period of days and its board.
"""
