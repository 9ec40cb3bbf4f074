"""Backup and restore of a whole site (docs/operations.md): ``manage.py site_export PATH`` writes
every recorded fact to one file, ``manage.py site_import PATH`` loads it into a fresh database
and rebuilds the ratings, and ``manage.py site_check`` prints what two sites can be compared by
(the rows of each carried table, every score sheet and the ratings, as counts and digests).

An interface, like ``api``: a command line over every app it carries (the matches, the
accounts, the ratings' events and their recompute, the users and their tokens), so it sits at
the top of the layers and nothing imports it. It has no models and serves no URL.
"""
